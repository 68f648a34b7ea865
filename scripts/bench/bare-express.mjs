// Benchmark: a bare Express 5 route answering the same 1 KB body.
import express from 'express';
const body = { data: 'x'.repeat(1000) };
const app = express();
app.get('/', (_req, res) => { res.json(body); });
const server = app.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
