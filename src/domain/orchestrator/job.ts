import { sourceNameProblem } from '../conmon/run-sources';
import { controlCharacterIn, visibleText } from '../encoding/control-characters';
import { InvalidInputError, NotFoundError } from '../errors';
import { describe, isPlainObject } from '../encoding/json-values';

/** Where a job's results go. Paths are absolute (resolved against the config file's directory). */
export interface JobOutputs {
  /** The auditor bundle directory, replaced as a whole by each run. */
  bundle: string;
  /** Record the run in the run store (`svc conmon process`). */
  store: boolean;
  /** Sink specs the conmon stage sends events to; empty: conmon.sinks of svc.config.json. */
  sinks: string[];
}

/** One job of svc.orchestrator.json: a scanner's output, turned into a bundle and a stored run on a schedule. */
export interface Job {
  /** Lowercase letters, digits and hyphens: valid as a file name and a Kubernetes name. */
  name: string;
  /** A vendor of `svc adapter run --list`. */
  adapter: string;
  /** The scanner's output file. */
  input: string;
  /** Program and arguments run first to produce `input`, in the config file's directory. */
  command?: string[];
  /** Cron expression in UTC: 5 fields, or 6 with seconds first. */
  schedule: string;
  /**
   * The source the runs are recorded as (`conmon process --source`; docs/conmon.md, "Sources"); without it, the
   * report's own (its scanner and tenant). Needs outputs.store.
   */
  source?: string;
  outputs: JobOutputs;
}

/** svc.orchestrator.json, validated. */
export interface OrchestratorConfig {
  /** The config file's absolute path. */
  file: string;
  /** Its directory: the working directory of `command`, and the base of relative paths. */
  dir: string;
  jobs: Job[];
}

/** What validation needs from outside the domain. */
export interface OrchestratorConfigChecks {
  /** The problem with a cron expression, or undefined when it is valid. */
  validateCron(expression: string): string | undefined;
  /** The adapters `svc adapter run` knows. */
  vendors: readonly string[];
  /** A path of the config made absolute against the config file's directory. */
  resolvePath(path: string): string;
}

export const ORCHESTRATOR_CONFIG_FILE = 'svc.orchestrator.json';
export const JOB_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

const JOB_KEYS = ['name', 'adapter', 'input', 'command', 'schedule', 'source', 'outputs'];

/** The JSON path of a member: `at.key`, or `at["key"]` for a key that is not a plain name (its line breaks escaped). */
const member = (at: string, key: string) => (/^[A-Za-z_$][\w$-]*$/.test(key) ? `${at}${at === '' ? '' : '.'}${key}` : `${at}[${JSON.stringify(key)}]`);
const OUTPUT_KEYS = ['bundle', 'store', 'sinks'];

/**
 * Checks svc.orchestrator.json field by field. Every problem is an InvalidInputError `invalid-orchestrator-config`
 * naming the file and the JSON path, e.g. `svc.orchestrator.json: jobs[1].schedule: ...; see docs/orchestrator.md`.
 */
export function readOrchestratorConfig(document: unknown, file: string, dir: string, checks: OrchestratorConfigChecks): OrchestratorConfig {
  const fail = (path: string, problem: string): never => {
    throw new InvalidInputError('invalid-orchestrator-config', `${file}: ${path}: ${problem}; see docs/orchestrator.md`);
  };
  const control = controlCharacterIn(file);
  if (control !== undefined) {
    // Checked first and named escaped: the path goes into every emitted schedule and heads every message below.
    throw new InvalidInputError(
      'invalid-orchestrator-config',
      `${visibleText(file)}: the config path holds the control character ${control}, which would break the lines of an emitted schedule; move or rename the config to a path without control characters; see docs/orchestrator.md`,
    );
  }
  if (!isPlainObject(document)) return fail('$', `expected an object with "jobs", got ${describe(document)}`);
  for (const key of Object.keys(document)) if (key !== 'jobs' && key !== '$schema') fail(member('', key), 'unknown setting (known: jobs, $schema)');
  const list = document.jobs;
  if (!Array.isArray(list) || list.length === 0) return fail('jobs', `expected a non-empty array of jobs, got ${describe(list)}`);
  const jobs = list.map((value: unknown, i) => readJob(value, `jobs[${i}]`, checks, fail));
  jobs.forEach((job, i) => {
    const first = jobs.findIndex((other) => other.name === job.name);
    if (first !== i) fail(`jobs[${i}].name`, `"${job.name}" is already the name of jobs[${first}]; job names must be unique`);
  });
  return { file, dir, jobs };
}

function readJob(value: unknown, at: string, checks: OrchestratorConfigChecks, fail: (path: string, problem: string) => never): Job {
  if (!isPlainObject(value)) return fail(at, `expected a job object, got ${describe(value)}`);
  for (const key of Object.keys(value)) if (!JOB_KEYS.includes(key)) fail(member(at, key), `unknown setting (known: ${JOB_KEYS.join(', ')})`);
  const { name, adapter, input, command, schedule, source, outputs } = value;
  if (typeof name !== 'string' || !JOB_NAME.test(name)) {
    fail(`${at}.name`, `expected 1 to 63 lowercase letters, digits and hyphens, starting with a letter or digit (a Kubernetes name), got ${describe(name)}`);
  }
  if (typeof adapter !== 'string') return fail(`${at}.adapter`, `expected an adapter such as "scubagear" (svc adapter run --list), got ${describe(adapter)}`);
  if (!checks.vendors.includes(adapter)) fail(`${at}.adapter`, `unknown adapter ${describe(adapter)} (known: ${checks.vendors.join(', ')})`);
  if (typeof input !== 'string' || input.trim() === '') fail(`${at}.input`, `expected the path of the scanner's output file, got ${describe(input)}`);
  const program = command === undefined ? undefined : readCommand(command, `${at}.command`, fail);
  if (typeof schedule !== 'string') return fail(`${at}.schedule`, `expected a cron expression such as "0 6 * * *", got ${describe(schedule)}`);
  const control = controlCharacterIn(schedule);
  if (control !== undefined)
    fail(
      `${at}.schedule`,
      `${describe(schedule)} holds the control character ${control}, which would break an emitted schedule; separate the cron fields with spaces`,
    );
  const problem = checks.validateCron(schedule);
  if (problem !== undefined) fail(`${at}.schedule`, `${describe(schedule)} ${problem}`);
  const named = source === undefined ? undefined : readSource(source, `${at}.source`, fail);
  const written = readOutputs(outputs, `${at}.outputs`, checks, fail);
  if (named !== undefined && !written.store) fail(`${at}.source`, 'names the source the runs are recorded as: set "outputs": {"store": true} as well');
  return {
    name: name as string,
    adapter,
    input: checks.resolvePath(input as string),
    ...(program ? { command: program } : {}),
    schedule,
    ...(named === undefined ? {} : { source: named }),
    outputs: written,
  };
}

/** A job's `source`: a source name as `conmon process --source` takes it (sourceNameProblem). */
function readSource(value: unknown, at: string, fail: (path: string, problem: string) => never): string {
  const fix = 'name the scanner and its scope, such as "nessus-prod-hosts", or leave it out to record the runs as the report\'s scanner and tenant';
  if (typeof value !== 'string') return fail(at, `expected a source name, got ${describe(value)}; ${fix}`);
  const problem = sourceNameProblem(value);
  return problem === undefined ? value : fail(at, `${describe(value)} ${problem}; ${fix}`);
}

function readCommand(value: unknown, at: string, fail: (path: string, problem: string) => never): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.some((part) => typeof part !== 'string') || value[0] === '') {
    return fail(at, `expected the program and its arguments as an array of strings, such as ["pwsh", "-File", "run-scuba.ps1"], got ${describe(value)}`);
  }
  return value as string[];
}

function readOutputs(value: unknown, at: string, checks: OrchestratorConfigChecks, fail: (path: string, problem: string) => never): JobOutputs {
  if (!isPlainObject(value)) return fail(at, `expected an object with "bundle" (and optionally "store", "sinks"), got ${describe(value)}`);
  for (const key of Object.keys(value)) if (!OUTPUT_KEYS.includes(key)) fail(member(at, key), `unknown setting (known: ${OUTPUT_KEYS.join(', ')})`);
  const { bundle, store = false, sinks = [] } = value;
  if (typeof bundle !== 'string' || bundle.trim() === '') fail(`${at}.bundle`, `expected the auditor bundle directory, got ${describe(bundle)}`);
  if (typeof store !== 'boolean') fail(`${at}.store`, `expected true (record each run in the run store) or false, got ${describe(store)}`);
  if (!Array.isArray(sinks) || sinks.some((sink) => typeof sink !== 'string' || sink.trim() === '')) {
    fail(`${at}.sinks`, `expected an array of sink specs such as "ndjson:out/events.ndjson", got ${describe(sinks)}`);
  }
  if ((sinks as string[]).length > 0 && store !== true) fail(`${at}.sinks`, 'events come from recording the run: set "store": true as well');
  // An ndjson file is a path like the others; network sinks are URLs.
  const resolved = (sinks as string[]).map((sink) => (sink.startsWith('ndjson:') ? `ndjson:${checks.resolvePath(sink.slice('ndjson:'.length))}` : sink));
  return { bundle: checks.resolvePath(bundle as string), store: store as boolean, sinks: resolved };
}

/** The job named `name`; NotFoundError (exit 3) listing the jobs otherwise. */
export function findJob(config: OrchestratorConfig, name: string): Job {
  const job = config.jobs.find((j) => j.name === name);
  if (job) return job;
  throw new NotFoundError('job-not-found', `${config.file}: no job named ${JSON.stringify(name)} (jobs: ${config.jobs.map((j) => j.name).join(', ')})`);
}
