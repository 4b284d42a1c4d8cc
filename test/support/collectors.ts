import type { Server as HttpServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';

/** RFC 6587 octet counting, read strictly: a count that is not the frame's byte length misaligns the next frame and fails. */
export function octetFrames(bytes: Buffer): string[] {
  const frames: string[] = [];
  let at = 0;
  while (at < bytes.length) {
    const space = bytes.indexOf(0x20, at);
    const count = bytes.subarray(at, space).toString('ascii');
    if (space < 0 || !/^[1-9]\d*$/.test(count) || space + 1 + Number(count) > bytes.length) throw new Error(`not an octet-counted frame at byte ${at}`);
    frames.push(bytes.subarray(space + 1, space + 1 + Number(count)).toString('utf8'));
    at = space + 1 + Number(count);
  }
  return frames;
}

/** The MSG part of a syslog line: everything after the SD element, whose `]` is the first one not escaped. */
export function msgOf(line: string): string {
  const end = /[^\\]\] /.exec(line);
  if (!end) throw new Error(`no SD element in ${line}`);
  return line.slice(end.index + 3);
}

/** Listens on a loopback port the kernel chooses; resolves with it. */
export function listening<T extends TcpServer | HttpServer>(server: T): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export function closed(server: TcpServer | HttpServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A port nothing listens on: one the kernel just handed out and took back. */
export async function deadPort(): Promise<number> {
  const server = createTcpServer();
  const port = await listening(server);
  await closed(server);
  return port;
}
