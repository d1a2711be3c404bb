// npm run build:wasm: assembles durable-objects/wasm/*.wat into the checked-in .wasm files (wabt, SIMD enabled).
import { readFileSync, writeFileSync } from "node:fs";
import wabtInit from "wabt";

const wabt = await wabtInit();
for (const name of ["cosine"]) {
  const path = new URL(`../durable-objects/wasm/${name}.wat`, import.meta.url);
  const mod = wabt.parseWat(`${name}.wat`, readFileSync(path, "utf8"), { simd: true });
  mod.validate();
  const { buffer } = mod.toBinary({});
  writeFileSync(new URL(`../durable-objects/wasm/${name}.wasm`, import.meta.url), buffer);
  console.log(`${name}.wasm: ${buffer.length} bytes`);
}
