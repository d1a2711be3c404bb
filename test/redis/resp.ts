// Test-only: a minimal RESP2 client over one TCP socket (commands in order, replies parsed as they arrive).
import { connect, type Socket } from "node:net";

export type RespValue = string | number | null | RespValue[] | RespError;
export class RespError {
  constructor(readonly message: string) {}
}

/** Parses one reply starting at `at`; undefined when the buffer does not hold a whole reply yet. */
function parse(buf: Buffer, at: number): { value: RespValue; next: number } | undefined {
  const eol = buf.indexOf("\r\n", at);
  if (eol < 0) return undefined;
  const type = String.fromCharCode(buf[at] as number);
  const line = buf.toString("utf8", at + 1, eol);
  const after = eol + 2;
  switch (type) {
    case "+":
      return { value: line, next: after };
    case "-":
      return { value: new RespError(line), next: after };
    case ":":
      return { value: Number(line), next: after };
    case "$": {
      const len = Number(line);
      if (len < 0) return { value: null, next: after };
      if (buf.length < after + len + 2) return undefined;
      return { value: buf.toString("utf8", after, after + len), next: after + len + 2 };
    }
    case "*": {
      const n = Number(line);
      if (n < 0) return { value: null, next: after };
      const items: RespValue[] = [];
      let pos = after;
      for (let i = 0; i < n; i++) {
        const item = parse(buf, pos);
        if (!item) return undefined;
        items.push(item.value);
        pos = item.next;
      }
      return { value: items, next: pos };
    }
    default:
      throw new Error(`unexpected RESP type ${type}`);
  }
}

export type RespClient = { send(args: string[]): Promise<RespValue>; close(): void };

export function respConnect(port: number): Promise<RespClient> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, "127.0.0.1");
    const waiting: ((v: RespValue) => void)[] = [];
    let buf = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const r = parse(buf, 0);
        if (!r) break;
        buf = buf.subarray(r.next);
        waiting.shift()?.(r.value);
      }
    });
    socket.once("error", reject);
    socket.once("connect", () =>
      resolve({
        send(args) {
          const parts = [`*${args.length}\r\n`];
          for (const a of args) parts.push(`$${Buffer.byteLength(a)}\r\n${a}\r\n`);
          return new Promise((res) => {
            waiting.push(res);
            socket.write(parts.join(""));
          });
        },
        close: () => socket.destroy(),
      }),
    );
  });
}
