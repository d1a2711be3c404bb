// npm run contracts: regenerates contracts/*.schema.json from the zod sources (the drift test fails until you do).
import { writeFileSync } from "node:fs";
import { CONTRACTS, toJsonSchema } from "../contracts/index";

for (const { name, schema } of CONTRACTS) {
  const path = new URL(`../contracts/${name}.schema.json`, import.meta.url);
  writeFileSync(path, `${JSON.stringify(toJsonSchema(name, schema), null, 2)}\n`);
  console.log(`wrote contracts/${name}.schema.json`);
}
