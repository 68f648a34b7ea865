// A TCP proxy on 127.0.0.1 in front of the test database, which a test can take down (every connection cut, new
// ones refused) and bring back on the same port: the database going away and returning, as the service sees it.
import { connect, createServer, type Server, type Socket } from 'node:net';

export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private stalled = false;
  port = 0;

  constructor(private readonly targetHost: string, private readonly targetPort: number) {}

  /** Reserves a port without listening on it yet (the target is "down" from the start). */
  async reserve(): Promise<this> {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    this.port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    return this;
  }

  async up(): Promise<this> {
    if (!this.port) await this.reserve();
    this.stalled = false;
    this.server = createServer((client) => {
      if (this.stalled) {
        // Accepted and never answered, as by a host that no longer replies.
        this.sockets.add(client);
        client.on('close', () => this.sockets.delete(client));
        client.on('error', () => client.destroy());
        return;
      }
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => { client.destroy(); upstream.destroy(); });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.port, '127.0.0.1', () => resolve());
    });
    return this;
  }

  /**
   * The database goes silent (its host stopped, or a network partition): open connections stay open but carry nothing
   * more either way, and new ones are accepted and never answered, so only the client's own time limits end a wait.
   * `resume()` ends it as a database restarted behind the silence would: the old connections are reset.
   */
  stall(): void {
    this.stalled = true;
    for (const s of this.sockets) {
      s.unpipe();
      s.pause();
    }
  }

  resume(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    this.stalled = false;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }
}
