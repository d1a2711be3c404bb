// The pages' shell: one HTML document with inline responsive CSS, the security headers, and the plain error pages.
import type { Child } from "hono/jsx";

const CSS = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#fff;--card:#f6f8fa;--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--accent:#0969da}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--bg:#0d1117;--card:#151b23;--ok:#3fb950;--bad:#f85149;--warn:#d29922;--accent:#4493f8}}
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1100px;margin:0 auto;padding:12px}h1{font-size:1.3em;margin:.3em 0;overflow-wrap:anywhere}h2{font-size:1.05em;margin:1.2em 0 .4em;border-bottom:1px solid var(--line);padding-bottom:.2em}
.muted{color:var(--muted)}.ok{color:var(--ok)}.bad{color:var(--bad)}.warn{color:var(--warn)}code{font:13px ui-monospace,monospace;overflow-wrap:break-word}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:8px}.card{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px}
.card b{display:block;font-size:1.2em}.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:14px}
th,td{text-align:left;padding:4px 6px;border-bottom:1px solid var(--line);vertical-align:top}th{font-weight:600;white-space:nowrap}
.pill{display:inline-block;padding:0 6px;border-radius:9px;border:1px solid currentColor;font-size:12px;white-space:nowrap}
svg{max-width:100%;height:auto}.card svg{display:block;margin:4px 0}footer{margin:2em 0 1em;font-size:12px}
@media (max-width:600px){td,th{padding:3px 4px;font-size:13px}.hide-sm{display:none}}
`;

/** The security headers of every page: nothing but inline styles and data: images; no script, frame or referrer. */
export const PAGE_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

export function Layout(props: { title: string; refreshSeconds?: number; children?: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        {props.refreshSeconds ? <meta http-equiv="refresh" content={String(props.refreshSeconds)} /> : null}
        <title>{props.title}</title>
        {/* a constant, never data: */}
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body>
        <main>{props.children}</main>
      </body>
    </html>
  );
}

/** Renders a page to a full HTML response with the security headers. */
export async function page(node: unknown, status = 200): Promise<Response> {
  const html = `<!doctype html>${await (node as { toString(): string | Promise<string> }).toString()}`;
  return new Response(html, { status, headers: PAGE_HEADERS });
}

/** A plain error page (401, 404): a sentence, no data. */
export function errorPage(status: 401 | 404, message: string): Promise<Response> {
  const title = status === 401 ? "Link expired or not valid" : "Not found";
  return page(
    <Layout title={`${status} · ${title}`}>
      <h1>{title}</h1>
      <p>{message}</p>
      <p class="muted">View links are read-only and last at most 15 minutes: ask for a new one.</p>
    </Layout>,
    status,
  );
}
