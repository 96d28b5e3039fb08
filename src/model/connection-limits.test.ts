import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { openConnection, openConnections, writeUntilClosed } from "../testing/raw-http.js";
import { clientOfAddress, connectionCheckingOptions, limitConnections } from "./connection-limits.js";

describe("clientOfAddress", () => {
  it("counts an IPv4 address as itself, whether it reached an IPv4 or an IPv6 socket", () => {
    expect(clientOfAddress("192.0.2.7")).toBe("192.0.2.7");
    expect(clientOfAddress("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(clientOfAddress("192.0.2.8")).not.toBe(clientOfAddress("192.0.2.7"));
  });

  it("counts IPv6 addresses of one /64 network as one client, however they are written", () => {
    const client = clientOfAddress("2001:db8:1:2::1");
    expect(clientOfAddress("2001:0db8:0001:0002:ffff:ffff:ffff:fffe")).toBe(client);
    expect(clientOfAddress("2001:db8:1:2:a:b:c:d")).toBe(client);
    expect(clientOfAddress("2001:db8:1:3::1")).not.toBe(client);
    expect(clientOfAddress("::1")).not.toBe(client);
  });

  it("counts an address it cannot read as one client of its own", () => {
    expect(clientOfAddress(undefined)).toBe("unknown");
    expect(clientOfAddress("not an address")).toBe("unknown");
  });
});

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/**
 * A plain HTTP server on loopback answering "ok", with the caps applied; counts the connections refused. On
 * `::` it takes IPv4 clients too, whose addresses it then sees in their IPv6 form (`::ffff:127.0.0.1`). The cap
 * per address binds once half of `maxConnections` are open.
 */
const serve = async (
  maxConnectionsPerAddress: number,
  maxConnections: number,
  host: "127.0.0.1" | "::" = "127.0.0.1",
) => {
  const refused = { count: 0 };
  const server = createServer(connectionCheckingOptions, (_request, response) => response.end("ok"));
  limitConnections(
    server,
    { maxConnections, maxConnectionsPerAddress, headersTimeoutMs: 10_000 },
    { refusedPerAddress: () => (refused.count += 1) },
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, ipv6Url: `http://[::1]:${port}`, refused };
};

/** Opens and holds `count` connections from `address`. */
const hold = (url: string, count: number, address: string) => openConnections(url, count, sockets, address);

const request = "GET / HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n";

/** What the server answers on `socket` (its whole output until it closes the connection). */
const answerOn = (socket: Socket) => writeUntilClosed(socket, request);

/** Waits until `condition` holds, checking every 20 ms. */
const until = async (condition: () => boolean | Promise<boolean>): Promise<void> => {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe("limitConnections, per client address", () => {
  it("once half the connections are open, closes one past the cap from one address, unanswered; serves others", async () => {
    // Half of 4 is 2: the client's own two connections put the server there.
    const { url, refused } = await serve(2, 4);
    await hold(url, 2, "127.0.0.1");
    expect(await answerOn(await openConnection(url, sockets, "127.0.0.1"))).toBe("");
    expect(refused.count).toBe(1);
    const other = await openConnection(url, sockets, "127.0.0.2");
    expect(await answerOn(other)).toMatch(/^HTTP\/1\.1 200[\s\S]*ok$/);
    expect(refused.count).toBe(1);
  });

  it("lets a client past its cap while fewer than half the connections are open", async () => {
    // Half of 10 is 5: one address may hold five, the cap of 2 notwithstanding, and no sixth.
    const { url, refused } = await serve(2, 10);
    await hold(url, 5, "127.0.0.1");
    expect(refused.count).toBe(0);
    expect(await answerOn(await openConnection(url, sockets, "127.0.0.1"))).toBe("");
    expect(refused.count).toBe(1);
    expect(await answerOn(await openConnection(url, sockets, "127.0.0.2"))).toMatch(/^HTTP\/1\.1 200/);
  });

  it("counts an IPv4 client reaching an IPv6 socket by its IPv4 address, apart from IPv6 clients", async () => {
    const { url, ipv6Url, refused } = await serve(1, 10, "::");
    // Five connections from a third address put the server at half of 10.
    await hold(url, 5, "127.0.0.3");
    await openConnection(url, sockets, "127.0.0.1");
    // The same IPv4 address again (seen as ::ffff:127.0.0.1) is refused; another IPv4 address and ::1 are not.
    expect(await answerOn(await openConnection(url, sockets, "127.0.0.1"))).toBe("");
    expect(refused.count).toBe(1);
    expect(await answerOn(await openConnection(url, sockets, "127.0.0.2"))).toMatch(/^HTTP\/1\.1 200/);
    expect(await answerOn(await openConnection(ipv6Url, sockets))).toMatch(/^HTTP\/1\.1 200/);
    expect(refused.count).toBe(1);
  });

  it("gives a client its slot back when one of its connections closes, however often they come and go", async () => {
    const { url, refused } = await serve(2, 10);
    // Many connections opened and closed in turn (answered, then closed by the server), never two at once.
    for (let round = 0; round < 50; round += 1)
      expect(await answerOn(await openConnection(url, sockets, "127.0.0.1"))).toMatch(/200/);
    // Five held from another address put the server at half of 10, and keep it there.
    await hold(url, 5, "127.0.0.3");
    expect(refused.count).toBe(0);
    const [first, second] = await hold(url, 2, "127.0.0.1");
    expect(await answerOn(await openConnection(url, sockets, "127.0.0.1"))).toBe("");
    expect(refused.count).toBe(1);
    first?.destroy();
    // Once the server has seen the held connection close, the client may open another.
    let answered = "";
    await until(async () => {
      answered = await answerOn(await openConnection(url, sockets, "127.0.0.1"));
      return answered !== "";
    });
    expect(answered).toMatch(/^HTTP\/1\.1 200/);
    expect(await answerOn(second as Socket)).toMatch(/^HTTP\/1\.1 200/);
  });
});
