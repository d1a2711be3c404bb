// The D1 contract against workerd's local D1 (the binding every workers test uses).
import { env } from "cloudflare:test";
import { d1Contract } from "./d1-contract";

d1Contract("workerd local D1", async () => env.DB);
