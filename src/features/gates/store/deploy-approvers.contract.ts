// The DeployApproverStore contract every implementation passes (D1 adapter in workerd, in-memory fake in Node).
import { describe, expect, it } from "vitest";
import type { AuditLogStore } from "../../../ports/audit-log";
import { auditEntry } from "../../audit/store/audit-log.contract";
import type { DeployApproverStore } from "./deploy-approvers-port";

const team = () => `t-approvers-${crypto.randomUUID()}`;

/** `make` answers the store and the audit log its applyRequest writes into. */
export function deployApproverStoreContract(
  name: string,
  make: () => { approvers: DeployApproverStore; audit: AuditLogStore },
) {
  describe(`DeployApproverStore contract: ${name}`, () => {
    it("has no roster until a request is applied, then exactly the request's subjects, sorted", async () => {
      const { approvers, audit } = make();
      const t = team();
      expect(await approvers.forTeam(t)).toEqual([]);
      const v1 = await approvers.addRequest(t, ["carol", "alice"], "alice", 1_000);
      expect(v1).toBe(1);
      expect(await approvers.forTeam(t)).toEqual([]);
      const entry = auditEntry(t, 2_000);
      expect(await approvers.applyRequest(t, v1, 2_000, entry)).toBe(true);
      expect(await approvers.forTeam(t)).toEqual(["alice", "carol"]);
      expect((await audit.list(t, { limit: 10 })).entries).toEqual([entry]);
    });

    it("replaces the roster with a later request, applies each version once, keeps teams apart", async () => {
      const { approvers, audit } = make();
      const [t, other] = [team(), team()];
      await approvers.applyRequest(
        t,
        await approvers.addRequest(t, ["alice", "bob"], "alice", 1_000),
        1_000,
        auditEntry(t, 1_000),
      );
      const v2 = await approvers.addRequest(t, ["bob", "dave"], "bob", 2_000);
      expect(v2).toBe(2);
      expect(await approvers.applyRequest(t, v2, 3_000, auditEntry(t, 3_000))).toBe(true);
      expect(await approvers.forTeam(t)).toEqual(["bob", "dave"]);
      expect(await approvers.applyRequest(t, v2, 4_000, auditEntry(t, 4_000))).toBe(false);
      expect(await approvers.applyRequest(other, v2, 4_000, auditEntry(other, 4_000))).toBe(false);
      expect(await approvers.forTeam(other)).toEqual([]);
      expect((await audit.list(t, { limit: 10 })).entries).toHaveLength(2);
    });
  });
}
