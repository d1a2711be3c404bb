// /v1/runs/:run_id/artifacts (upload raw bytes, list), /v1/artifacts/:artifact_id (download, signed link), and the
// link itself: GET /artifacts/:artifact_id?view= (a read-only view token; not an API route, so not in the OpenAPI).
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { WireId } from "../../../contracts/wire-id";
import { mintViewToken, verifyViewToken } from "../../auth/view-token";
import { AppFailure } from "../../errors";
import { requireScope } from "../../http/middleware";
import { bearer, commonErrors, ErrorEnvelope, featureApp, jsonResponse } from "../../http/openapi";
import type { FeatureEnv } from "../../http/types";
import { actorOf, callRun, RunParams, runErrors } from "../runs";
import { ARTIFACT_KINDS } from "./domain";
import type { ArtifactsNeeds } from "./needs";
import { artifactRow, artifactView, openArtifact, type Reader, servedHeaders } from "./read";
import { uploadArtifact } from "./upload";

const ArtifactParams = z.object({ artifact_id: WireId });
const UploadHeadersSchema = z.object({
  "x-artifact-kind": z.string().meta({ description: `one of ${ARTIFACT_KINDS.join(", ")}` }),
  "x-sha256": z.string().meta({ description: "SHA-256 of the body, 64 hex digits (422 when it does not match)" }),
  "x-op-id": z.string().optional().meta({ description: "the attempt (op_id) the artifact is evidence of" }),
  "x-order-id": z.string().optional().meta({ description: "with x-lease-id and x-lease-epoch: the caller's lease" }),
  "x-lease-id": z.string().optional(),
  "x-lease-epoch": z.string().optional(),
});
const Artifact = z
  .object({
    artifact_id: z.string(),
    run_id: z.string(),
    op_id: z.string().nullable(),
    kind: z.enum(ARTIFACT_KINDS),
    uri: z.string(),
    content_type: z.string(),
    size_bytes: z.int(),
    sha256: z.string(),
    status: z.enum(["held", "released"]),
    gate_id: z.string().nullable(),
    created_at: z.int(),
    expires_at: z.int(),
  })
  .meta({ id: "Artifact" });
const Uploaded = z
  .object({
    artifact_id: z.string(),
    run_id: z.string(),
    kind: z.string(),
    sha256: z.string(),
    size_bytes: z.int(),
    status: z.enum(["held", "released"]),
    gate_id: z.string().optional(),
    expires_at: z.int(),
  })
  .meta({
    id: "ArtifactUploaded",
    example: {
      artifact_id: "art_3f…",
      run_id: "run_5b0c…",
      kind: "log",
      sha256: "9f86d0…",
      size_bytes: 5120,
      status: "released",
      expires_at: 1769817600000,
    },
  });
const ArtifactLink = z.object({ url: z.string(), expires_at: z.string() }).meta({ id: "ArtifactLink" });
const err = (description: string) => ({ description, content: { "application/json": { schema: ErrorEnvelope } } });

type Ctx = Context<FeatureEnv<ArtifactsNeeds>>;

function readerOf(c: Ctx): Reader {
  const p = c.get("principal");
  return { teamId: p.teamId, ...(p.runId === undefined ? {} : { boundRunId: p.runId }), actor: actorOf(p) };
}

const LINK_REFUSED = "This link is not valid, has expired, or does not open this artifact.";

export const artifactsRoutes = featureApp<ArtifactsNeeds>()
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/runs/{run_id}/artifacts",
      tags: ["artifacts"],
      summary:
        "Upload one artifact (raw body ≤ 10 MiB) as evidence of the run: the order's lease holder or a run-bound token",
      description:
        "Refused with nothing stored: a kind outside log|json|blob|trace (400), a body over the per-artifact limit " +
        "(413, from Content-Length and while streaming) or over the team's quota (413), a SHA-256 that does not " +
        "match x-sha256 (422), a secret in a text artifact (422 redaction_required), another team's run (404), an " +
        "order the caller does not hold (409). Personal data in a text artifact holds it behind the run's " +
        "pii_detected gate (status held, gate_id).",
      security: bearer,
      middleware: [requireScope("runs:write")] as const,
      request: {
        params: RunParams,
        headers: UploadHeadersSchema,
        body: {
          required: true,
          content: { "application/octet-stream": { schema: z.string().meta({ format: "binary" }) } },
        },
      },
      responses: {
        201: jsonResponse(Uploaded, "stored (or held for the pii_detected gate)"),
        ...commonErrors,
        ...runErrors,
        413: err("payload_too_large: over the per-artifact limit or the team's artifact quota"),
      },
    }),
    async (c) => {
      const { deps } = c.env;
      const { run_id } = c.req.valid("param");
      const header = (name: string) => c.req.header(name);
      const reply = await uploadArtifact(
        deps,
        c.get("principal"),
        {
          runId: run_id,
          headers: {
            kind: header("x-artifact-kind"),
            sha256: header("x-sha256"),
            opId: header("x-op-id"),
            contentType: header("content-type"),
            contentLength: header("content-length"),
            orderId: header("x-order-id"),
            leaseId: header("x-lease-id"),
            epoch: header("x-lease-epoch"),
          },
          body: c.req.raw.body,
        },
        deps.clock.now(),
      );
      return c.json(reply, 201);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/runs/{run_id}/artifacts",
      tags: ["artifacts"],
      summary: "The run's artifacts, oldest first",
      security: bearer,
      middleware: [requireScope("runs:read")] as const,
      request: { params: RunParams },
      responses: {
        200: jsonResponse(z.object({ artifacts: z.array(Artifact) }), "the run's artifacts"),
        ...commonErrors,
        ...runErrors,
      },
    }),
    async (c) => {
      const { run_id } = c.req.valid("param");
      const reader = readerOf(c);
      // the run object answers 404 for another team's run and 403 for a token bound to another run
      await callRun(c.env.deps.runs, run_id, "view", { actor: reader.actor });
      const rows = await c.env.deps.artifactStore.listForRun(reader.teamId, run_id);
      return c.json({ artifacts: rows.map(artifactView) }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/artifacts/{artifact_id}",
      tags: ["artifacts"],
      summary: "Download one artifact's bytes (streamed; held artifacts only after their pii_detected gate allows)",
      security: bearer,
      middleware: [requireScope("runs:read")] as const,
      request: { params: ArtifactParams },
      responses: {
        200: {
          description: "the bytes, with x-sha256 and x-artifact-kind",
          content: { "application/octet-stream": { schema: z.string().meta({ format: "binary" }) } },
        },
        ...commonErrors,
        ...runErrors,
      },
    }),
    async (c) => {
      const { row, object } = await openArtifact(c.env.deps, readerOf(c), c.req.valid("param").artifact_id);
      return new Response(object.body, { status: 200, headers: servedHeaders(row) }) as never;
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/artifacts/{artifact_id}/link",
      tags: ["artifacts"],
      summary: "A signed read-only URL (≤ 15 min) that opens this one artifact",
      security: bearer,
      middleware: [requireScope("runs:read")] as const,
      request: { params: ArtifactParams },
      responses: { 201: jsonResponse(ArtifactLink, "the link and when it expires"), ...commonErrors, ...runErrors },
    }),
    async (c) => {
      const { deps } = c.env;
      const row = await artifactRow(deps, readerOf(c), c.req.valid("param").artifact_id);
      const scope = { kind: "artifact", team_id: row.teamId, run_id: row.runId, artifact_id: row.artifactId } as const;
      const { token, expires_at_ms } = await mintViewToken(deps.config.WARDEN_JWT_SECRET, scope, deps.clock.now());
      const base = deps.config.PUBLIC_URL.replace(/(?<!\/)\/+$/, "");
      const url = `${base}/artifacts/${encodeURIComponent(row.artifactId)}?view=${token}`;
      return c.json({ url, expires_at: new Date(expires_at_ms).toISOString() }, 201);
    },
  )
  .get("/artifacts/:artifact_id", async (c) => {
    const { deps } = c.env;
    const artifactId = c.req.param("artifact_id");
    const verified = await verifyViewToken(deps.config.WARDEN_JWT_SECRET, c.req.query("view") ?? "", deps.clock.now());
    const refused = () => c.text(LINK_REFUSED, 401, { "cache-control": "no-store" });
    if (!verified.ok || verified.value.kind === "team") return refused();
    const view = verified.value;
    if (view.kind === "artifact" && view.artifact_id !== artifactId) return refused();
    const actor = { team_id: view.team_id, subject: "view-token", run_id: view.run_id };
    const reader: Reader = { teamId: view.team_id, boundRunId: view.run_id, actor };
    let opened: Awaited<ReturnType<typeof openArtifact>>;
    try {
      opened = await openArtifact(deps, reader, artifactId);
    } catch (e) {
      if (e instanceof AppFailure && e.error.code === "not_found") return refused();
      throw e;
    }
    return new Response(opened.object.body, { status: 200, headers: servedHeaders(opened.row) });
  });
