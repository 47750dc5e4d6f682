// What a container of each seeded image would print: nginx and envoy access logs, redis and postgres
// server logs, grafana's logfmt, and for anything else an application log with SGR-coloured levels
// (what many apps print on a TTY-less stdout anyway). Deterministic in (seed, index), so a line read
// twice, or read by a reconnecting client, is the same line.

export interface LineRole {
  /** One of the first lines of the run (its startup banner). */
  startup: boolean;
  /** One of the lines written as the run exited, with the exit code. */
  exit?: { line: number; code: number };
}

function mix(seed: number, index: number): number {
  let value = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  value = Math.imul(value ^ (value >>> 16), 0x85ebca6b) >>> 0;
  value = Math.imul(value ^ (value >>> 13), 0xc2b2ae35) >>> 0;
  return (value ^ (value >>> 16)) >>> 0;
}

function pick<T>(items: readonly T[], value: number): T {
  return items[value % items.length];
}

const paths = ['/', '/healthz', '/api/v1/items', '/api/v1/orders', '/static/app.js', '/metrics', '/login'];
const agents = ['kube-probe/1.32', 'Mozilla/5.0', 'curl/8.5.0', 'Go-http-client/1.1', 'Prometheus/2.54.1'];
const statuses = [200, 200, 200, 200, 200, 201, 204, 301, 304, 404, 500, 503];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const red = '\u001b[31m';
const green = '\u001b[32m';
const yellow = '\u001b[33m';
const cyan = '\u001b[36m';
const bold = '\u001b[1m';
const reset = '\u001b[0m';

function two(value: number): string {
  return String(value).padStart(2, '0');
}

function clientAddress(value: number): string {
  return `10.244.${(value >>> 8) & 7}.${2 + (value % 250)}`;
}

function nginx(value: number, time: Date, role: LineRole, index: number): string {
  if (role.startup)
    return `${time.toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, '/')} [notice] 1#1: ${pick(['using the "epoll" event method', 'nginx/1.27.2', 'start worker processes', 'start worker process 29'], index)}`;
  if (role.exit)
    return `${time.toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, '/')} [emerg] 1#1: bind() to 0.0.0.0:80 failed (98: Address in use)`;
  const stamp = `${two(time.getUTCDate())}/${months[time.getUTCMonth()]}/${time.getUTCFullYear()}:${two(time.getUTCHours())}:${two(time.getUTCMinutes())}:${two(time.getUTCSeconds())} +0000`;
  return `${clientAddress(value)} - - [${stamp}] "${pick(['GET', 'GET', 'GET', 'POST'], value >>> 3)} ${pick(paths, value >>> 5)} HTTP/1.1" ${pick(statuses, value >>> 9)} ${100 + (value % 9000)} "-" "${pick(agents, value >>> 13)}"`;
}

function envoy(value: number, time: Date, role: LineRole, index: number): string {
  if (role.startup)
    return `[${time.toISOString()}][1][info][main] [source/server/server.cc:${400 + index}] ${pick(['initializing epoch 0', 'statically linked extensions', 'admin address: 0.0.0.0:9901', 'all clusters initialized'], index)}`;
  if (role.exit) return `[${time.toISOString()}][1][critical][main] caught ENVOY_SIGTERM`;
  return `[${time.toISOString()}] "${pick(['GET', 'POST'], value)} ${pick(paths, value >>> 5)} HTTP/1.1" ${pick(statuses, value >>> 9)} - 0 ${value % 5000} ${value % 40} ${value % 30} "-" "${pick(agents, value >>> 13)}" "${(value >>> 0).toString(16)}" "backend:8080"`;
}

function redis(value: number, time: Date, role: LineRole): string {
  const stamp = `${two(time.getUTCDate())} ${months[time.getUTCMonth()]} ${time.getUTCFullYear()} ${time.toISOString().slice(11, 23)}`;
  if (role.startup) return `1:M ${stamp} * Ready to accept connections tcp`;
  if (role.exit) return `1:M ${stamp} # Redis is now ready to exit, bye bye...`;
  return pick(
    [
      `1:M ${stamp} * ${1 + (value % 100)} changes in 60 seconds. Saving...`,
      `1:M ${stamp} * Background saving started by pid ${100 + (value % 900)}`,
      `${100 + (value % 900)}:C ${stamp} * DB saved on disk`,
      `1:M ${stamp} * Background saving terminated with success`,
    ],
    value >>> 4,
  );
}

function postgres(value: number, time: Date, role: LineRole): string {
  const stamp = `${time.toISOString().slice(0, 23).replace('T', ' ')} UTC [1]`;
  if (role.startup) return `${stamp} LOG:  database system is ready to accept connections`;
  if (role.exit) return `${stamp} FATAL:  could not open file "global/pg_filenode.map": Permission denied`;
  return pick(
    [
      `${stamp} LOG:  checkpoint starting: time`,
      `${stamp} LOG:  checkpoint complete: wrote ${value % 400} buffers (${value % 9}.${value % 10}%); 0 WAL file(s) added`,
      `${stamp} LOG:  connection received: host=${clientAddress(value)} port=${30000 + (value % 30000)}`,
      `${stamp} ERROR:  duplicate key value violates unique constraint "orders_pkey"`,
    ],
    value >>> 4,
  );
}

function grafana(value: number, time: Date, role: LineRole): string {
  const stamp = `t=${time.toISOString()}`;
  if (role.startup) return `logger=server ${stamp} level=info msg="Starting Grafana" version=11.2.0`;
  if (role.exit) return `logger=server ${stamp} level=error msg="Server shutdown" reason="context canceled"`;
  return `logger=context userId=0 orgId=1 uname= ${stamp} level=info msg="Request Completed" method=GET path=${pick(paths, value >>> 5)} status=${pick(statuses, value >>> 9)} remote_addr=${clientAddress(value)} time_ms=${value % 90} size=${value % 4000}`;
}

const infoMessages = [
  'processed batch of {n} messages in {ms}ms',
  'GET /api/v1/items 200 {ms}ms',
  'cache hit ratio 0.{n}',
  'reconciled {n} objects',
  'heartbeat ok',
];
const debugMessages = ['cache miss for key item:{n}', 'GET /healthz 200 {ms}ms'];
const warnMessages = ['slow query took {ms}ms', 'retrying upstream request (attempt {a})'];
const errorMessages = ['GET /api/v1/orders 500 {ms}ms', 'upstream timed out after {ms}ms'];

function application(value: number, time: Date, role: LineRole): string {
  const stamp = time.toISOString();
  if (role.startup)
    return `${stamp} ${green}INFO${reset} ${bold}starting${reset} version=1.${value % 20}.${value % 7}`;
  if (role.exit) {
    if (role.exit.code === 0) return `${stamp} ${green}INFO${reset} done, exiting`;
    return pick(
      [
        `${stamp} ${red}ERROR${reset} dial tcp 10.96.0.12:5432: connect: connection refused`,
        `${stamp} ${red}FATAL${reset} giving up after 5 attempts`,
        `panic: runtime error: invalid memory address or nil pointer dereference`,
      ],
      role.exit.line,
    );
  }
  const [level, messages] =
    value % 20 === 0
      ? [`${red}ERROR${reset}`, errorMessages]
      : value % 7 === 0
        ? [`${yellow}WARN${reset}`, warnMessages]
        : value % 5 === 0
          ? [`${cyan}DEBUG${reset}`, debugMessages]
          : [`${green}INFO${reset}`, infoMessages];
  const message = pick(messages, value >>> 6)
    .replace('{n}', String(value % 1000))
    .replace('{ms}', String(value % 700))
    .replace('{a}', String(1 + (value % 4)));
  return `${stamp} ${level} ${message}`;
}

/** The text (no newline) of line `index` of a run of `image`, written at `time`. */
export function logLineText(
  image: string,
  seed: number,
  index: number,
  time: number,
  role: LineRole,
): string {
  const value = mix(seed, index);
  const date = new Date(time);
  const name = image.slice(image.lastIndexOf('/') + 1);
  if (name.startsWith('nginx')) return nginx(value, date, role, index);
  if (name.startsWith('envoy')) return envoy(value, date, role, index);
  if (name.startsWith('redis')) return redis(value, date, role);
  if (name.startsWith('postgres')) return postgres(value, date, role);
  if (name.startsWith('grafana')) return grafana(value, date, role);
  return application(value, date, role);
}
