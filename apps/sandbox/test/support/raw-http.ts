import { connect } from "node:net";

export interface RawReply {
  readonly status: number;
  readonly head: string;
  readonly body: any;
  readonly text: string;
}

/**
 * Sends bytes exactly as given over one TCP connection and reads the answer until the server closes
 * it or 2 s pass: for requests fetch() refuses to send (broken framing, huge headers, bad escapes).
 */
export function rawHttp(url: string, request: string): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const finish = () => {
      socket.destroy();
      const text = Buffer.concat(chunks).toString("utf8");
      const [head = "", body = ""] = text.split("\r\n\r\n", 2);
      const status = Number(head.split(" ")[1]);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined;
      }
      resolve({ status, head, body: parsed, text });
    };
    const timer = setTimeout(finish, 2000);
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString("utf8");
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      const bodyStart = text.indexOf("\r\n\r\n");
      if (length && bodyStart >= 0 && Buffer.byteLength(text.slice(bodyStart + 4)) >= Number(length)) {
        clearTimeout(timer);
        finish();
      }
    });
    socket.on("end", () => {
      clearTimeout(timer);
      finish();
    });
    socket.on("error", reject);
    socket.write(request);
  });
}
