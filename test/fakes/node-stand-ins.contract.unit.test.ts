// The in-memory DecisionObjects and ArtifactObjects against the contracts the R2 adapters pass in workerd
// (src/adapters/r2/decision-objects.contract.test.ts), and the recording EVENTS producer's one promise.
import { expect, it } from "vitest";
import { artifactObjectsContract } from "../../src/adapters/r2/artifact-objects.contract";
import { decisionObjectsContract } from "../../src/adapters/r2/decision-objects.contract";
import { loggedDecision } from "../decision-log-fixture";
import {
  createMemoryArtifactObjects,
  createMemoryDecisionJournal,
  createMemoryDecisionObjects,
  createRecordingEventBus,
} from "./node-stand-ins";

decisionObjectsContract("in-memory fake", () => createMemoryDecisionObjects());
artifactObjectsContract("in-memory fake", () => createMemoryArtifactObjects());

it("the recording event bus keeps every published event in order, as copies", async () => {
  const bus = createRecordingEventBus();
  const first = { type: "x", event_id: "e1" } as never;
  await bus.publish([first]);
  await bus.publish([{ type: "y", event_id: "e2" } as never, { type: "z", event_id: "e3" } as never]);
  (first as { event_id: string }).event_id = "changed";
  expect(bus.published().map((e) => (e as { event_id: string }).event_id)).toEqual(["e1", "e2", "e3"]);
});

it("the in-memory decision journal keeps each team's decisions once, in order, and refuses another team's", async () => {
  const journal = createMemoryDecisionJournal();
  const [a, b] = [loggedDecision("t1", "d1", 1), loggedDecision("t1", "d2", 2)];
  await journal.append("t1", [a]);
  await journal.append("t1", [a, b]);
  expect(journal.journaled("t1").map((d) => d.decision_id)).toEqual(["d1", "d2"]);
  await expect(journal.append("t2", [a])).rejects.toThrow(/not of team t2/);
  expect(journal.journaled("t2")).toEqual([]);
});
