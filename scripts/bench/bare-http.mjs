// Benchmark floor: node:http answering a canned 1 KB JSON body.
import { createServer } from 'node:http';
const body = JSON.stringify({ data: 'x'.repeat(1000) });
const server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); });
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
