import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface SmtpCatcher {
  /** `smtp://127.0.0.1:<port>`, for PAYSPEC_SMTP_URL. */
  readonly url: string;
  /** Every message the server accepted, parsed, in order. */
  readonly received: ParsedMail[];
  /** How many deliveries it refused (see `refuseFirst`). */
  refused: number;
  /** Resolves when `count` messages have arrived (fails after `ms`). */
  waitFor(count: number, ms?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives. `refuseFirst` refuses that many
 * deliveries with a 451 (a temporary failure), as a busy server does, before accepting.
 */
export async function startSmtpCatcher({ refuseFirst = 0 } = {}): Promise<SmtpCatcher> {
  const received: ParsedMail[] = [];
  const catcher = {
    received,
    refused: 0,
  } as SmtpCatcher & { refused: number };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (catcher.refused < refuseFirst) {
          catcher.refused++;
          const busy = Object.assign(new Error("Try again later"), { responseCode: 451 });
          callback(busy);
          return;
        }
        simpleParser(Buffer.concat(chunks)).then((mail) => {
          received.push(mail);
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(catcher, {
    url: `smtp://127.0.0.1:${port}`,
    async waitFor(count: number, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`${received.length} of ${count} e-mails arrived within ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
