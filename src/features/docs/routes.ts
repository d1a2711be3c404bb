// GET /docs: a readable API reference rendered from the same OpenAPI document (no external assets).
import { Hono } from "hono";
import { html, raw } from "hono/html";
import type { FeatureEnv } from "../../http/types";

type Operation = {
  summary?: string;
  security?: unknown[];
  requestBody?: { content?: Record<string, { schema?: unknown; example?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
};
type OpenApiDoc = {
  info: { title: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, { example?: unknown; examples?: unknown[] }> };
};

const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Follows a `#/components/schemas/X` reference so the page shows the shape itself. */
function deref(doc: OpenApiDoc, schema: unknown): { example?: unknown; examples?: unknown[] } | undefined {
  const ref = (schema as { $ref?: string } | undefined)?.$ref;
  if (ref?.startsWith("#/components/schemas/")) return doc.components?.schemas?.[ref.slice(21)];
  return schema as { example?: unknown } | undefined;
}

function renderSchema(doc: OpenApiDoc, title: string, schema: unknown, mediaExample?: unknown): string {
  const resolved = deref(doc, schema);
  if (!resolved) return "";
  const example = mediaExample ?? resolved.example ?? resolved.examples?.[0];
  return `<h3>${title}</h3>${example === undefined ? "" : `<pre>${escapeHtml(pretty(example))}</pre>`}
  <details><summary>${title} schema</summary><pre>${escapeHtml(pretty(resolved))}</pre></details>`;
}

function renderOperation(doc: OpenApiDoc, method: string, path: string, op: Operation): string {
  const body = op.requestBody?.content?.["application/json"]?.schema;
  const responses = Object.entries(op.responses ?? {})
    .map(([status, r]) => `<li><code>${status}</code> ${escapeHtml(r.description ?? "")}</li>`)
    .join("");
  const ok = Object.entries(op.responses ?? {}).find(([s]) => s.startsWith("2"))?.[1]?.content?.["application/json"]
    ?.schema;
  return `<section id="${escapeHtml(`${method}-${path}`)}">
  <h2><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h2>
  <p>${escapeHtml(op.summary ?? "")}${op.security?.length ? " <em>(bearer token)</em>" : ""}</p>
  ${body ? renderSchema(doc, "Request body", body, op.requestBody?.content?.["application/json"]?.example) : ""}
  ${ok ? renderSchema(doc, "Response", ok) : ""}
  <ul>${responses}</ul>
</section>`;
}

/** `document` yields the app's OpenAPI 3.1 document (built once, on first use). */
export const docsRoutes = (document: () => unknown) =>
  new Hono<FeatureEnv<unknown>>().get("/docs", (c) => {
    const doc = document() as OpenApiDoc;
    const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => renderOperation(doc, method, path, op)),
    );
    const toc = Object.entries(doc.paths)
      .flatMap(([path, methods]) =>
        Object.keys(methods).map(
          (m) => `<li><a href="#${escapeHtml(`${m}-${path}`)}">${m.toUpperCase()} ${escapeHtml(path)}</a></li>`,
        ),
      )
      .join("");
    return c.html(html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${doc.info.title} reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2433}
pre{background:#f4f6fa;padding:.75rem;overflow:auto;font-size:12px}
.m{display:inline-block;min-width:3.5rem;font-size:12px;padding:2px 6px;border-radius:4px;color:#fff;background:#555}
.get{background:#2f7d32}.post{background:#1f5fbf}.put{background:#a36a00}.delete{background:#b3261e}
section{border-top:1px solid #dde2ea;padding-top:.5rem}
</style></head><body>
<h1>${doc.info.title}</h1><p>${doc.info.description ?? ""}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a>. Errors always use
<code>{"error":{"code","message","request_id"}}</code>.</p>
<ul>${raw(toc)}</ul>
${raw(ops.join("\n"))}
</body></html>`);
  });
