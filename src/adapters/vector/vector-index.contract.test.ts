// The VectorIndex contract with workerd's VectorIndexDO (the fake Vectorize binding's own checks run in Node).
import { env } from "cloudflare:test";
import { vectorIndexContract } from "./vector-index.contract";

vectorIndexContract("workerd", env.VECTOR_INDEX);
