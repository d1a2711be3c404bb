// The Health DAG as a graph: a valid WorkItem v1 batch, extract (extractor) before persist (cpu) for every document.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WorkItemV1 } from "../../../contracts/work-item.v1";
import { graphIssues } from "../runs/graph";
import { HEALTH_KINDS, HEALTH_NOISE, HEALTH_PERSONAS, healthDagItems } from "./health-dag";

const docs = fc.uniqueArray(
  fc.record({
    doc_id: fc.stringMatching(/^[a-z0-9-]{1,40}$/),
    kind: fc.constantFrom(...HEALTH_KINDS),
    noise: fc.constantFrom(...HEALTH_NOISE),
  }),
  { selector: (d) => d.doc_id, minLength: 1, maxLength: 40 },
);

describe("healthDagItems", () => {
  it("declares, per document, an extractor item and a cpu item that depends on it; the batch is a valid graph", () => {
    fc.assert(
      fc.property(docs, (ds) => {
        const items = healthDagItems(ds);
        expect(items).toHaveLength(ds.length * 2);
        for (const item of items) expect(WorkItemV1.safeParse(item).success).toBe(true);
        expect(graphIssues(items)).toEqual([]);
        for (const d of ds) {
          const extract = items.find((i) => i.item_id === `extract-${d.doc_id}`);
          const persist = items.find((i) => i.item_id === `persist-${d.doc_id}`);
          expect(extract).toMatchObject({
            persona_id: "extractor",
            depends_on: [],
            input_json: { doc_id: d.doc_id, kind: d.kind, noise: d.noise },
          });
          expect(persist).toMatchObject({ persona_id: "cpu", depends_on: [`extract-${d.doc_id}`] });
        }
      }),
    );
  });

  it("gives the extractor the seed's mutex (limit 1) and cpu two at once", () => {
    expect(HEALTH_PERSONAS.extractor.concurrency_limit).toBe(1);
    expect(HEALTH_PERSONAS.cpu.concurrency_limit).toBe(2);
  });
});
