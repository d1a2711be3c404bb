// VectorIndexDO: the embedded exact-cosine vector index; its behaviour arrives with the memory feature.
import { DurableObject } from "cloudflare:workers";

export class VectorIndexDO extends DurableObject<Env> {}
