// `sandbox operator …`: the operator's commands on a data directory (and, for faults, on the
// sandbox running from it, found through its runtime file or --url/--secret).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from './db/open.ts';
import { createOperator, OperatorError } from './operator.ts';
import type { FolderRecord, ModelRecord, OrderRecord, OrderStatus, ProjectRecord, UploadRecord, UserRecord } from './operator.ts';
import { seedDemoAccounts } from './seed.ts';
import { readRuntimeInfo } from './server.ts';

export const OPERATOR_HELP = `Usage: sandbox operator <command> [options]

Commands:
  add-user <email> <password>          create a sign-in account
  create-project <name> [--assign <email>]
                                       create a project, optionally assigned to a user
  assign <projectId> <email>           give a user access to a project
  unassign <projectId> <email>         take a project away from a user
  list-users                           users and the projects assigned to them
  list-projects                        projects and who they are assigned to
  add-model <projectId> <file> [--name <name>]
                                       add a model file (.stl, .obj, .3mf) to a project
  list-models <projectId>              a project's models
  list-folders <projectId>             a project's folders (flat, with parent ids)
  create-folder <projectId> <name> [--parent <folderId>]
                                       create a folder, optionally inside another
  list-uploads [--project <projectId>] upload sessions: offset, bytes received, state
  list-orders [--project <projectId>]  orders, oldest first
  advance-order <orderId> [status]     move an order to its next state, or to status
                                       (received, in_production, shipped, delivered, cancelled)
  faults set <json>                    replace the running sandbox's faults, e.g.
                                       '{"kind":"status-5xx","path":"/Order/","count":3}'
  faults list                          show the running sandbox's active faults
  faults clear                         remove every fault

Options:
  --data <dir>     data directory (default .sandbox-data)
  --json           print results as JSON
  --url <url>      running sandbox (faults only; default: from the data directory)
  --secret <s>     its admin secret (faults only; default: from the data directory)
  -h, --help       show this help`;

const OPTIONS = {
  data: { type: 'string', default: '.sandbox-data' },
  json: { type: 'boolean', default: false },
  assign: { type: 'string' },
  name: { type: 'string' },
  project: { type: 'string' },
  parent: { type: 'string' },
  url: { type: 'string' },
  secret: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

type Values = ReturnType<typeof parse>['values'];

function parse(args: string[]) {
  return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
}

/** Runs one operator command; returns the process exit code. */
export async function runOperator(args: string[], out = console.log): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${OPERATOR_HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    out(OPERATOR_HELP);
    return values.help ? 0 : 2;
  }
  try {
    if (command === 'faults') return await faults(rest, values, out);
    return await onData(command, rest, values, out);
  } catch (error) {
    if (!(error instanceof OperatorError)) throw error;
    console.error(error.message);
    return 1;
  }
}

async function onData(command: string, args: string[], values: Values, out: (s: string) => void): Promise<number> {
  const db = openDatabase(values.data);
  try {
    await seedDemoAccounts(db, path.resolve(values.data));
    const operator = createOperator(db, path.resolve(values.data));
    const print = (value: unknown, text: string) => out(values.json ? JSON.stringify(value, null, 2) : text);
    const need = (n: number, usage: string) => {
      if (args.length !== n) throw new OperatorError(`Usage: sandbox operator ${command} ${usage}`);
    };
    switch (command) {
      case 'add-user': {
        need(2, '<email> <password>');
        const user = await operator.addUser(args[0], args[1]);
        print(user, `created user ${user.userId} ${user.email}`);
        return 0;
      }
      case 'create-project': {
        need(1, '<name> [--assign <email>]');
        const project = await operator.createProject(args[0], { assign: values.assign });
        print(project, `created project ${project.projectId} ${JSON.stringify(project.name)}${assignedText(project)}`);
        return 0;
      }
      case 'assign':
      case 'unassign': {
        need(2, '<projectId> <email>');
        const project = await operator[command](args[0], args[1]);
        print(project, `project ${project.projectId}${assignedText(project) || ' is assigned to nobody'}`);
        return 0;
      }
      case 'list-users': {
        const users = await operator.listUsers();
        print(users, users.map(userLine).join('\n') || '(no users)');
        return 0;
      }
      case 'list-projects': {
        const projects = await operator.listProjects();
        print(projects, projects.map(projectLine).join('\n') || '(no projects)');
        return 0;
      }
      case 'add-model': {
        need(2, '<projectId> <file> [--name <name>]');
        const model = await operator.addModel(args[0], args[1], { name: values.name });
        print(model, `added model ${model.modelId} ${JSON.stringify(model.name)} (${model.format}, ${model.sizeBytes} bytes) to ${model.projectId}`);
        return 0;
      }
      case 'list-models': {
        need(1, '<projectId>');
        const models = await operator.listModels(args[0]);
        print(models, models.map(modelLine).join('\n') || '(no models)');
        return 0;
      }
      case 'list-folders': {
        need(1, '<projectId>');
        const folders = await operator.listFolders(args[0]);
        print(folders, folders.map(folderLine).join('\n') || '(no folders)');
        return 0;
      }
      case 'create-folder': {
        need(2, '<projectId> <name> [--parent <folderId>]');
        const folder = await operator.createFolder(args[0], args[1], { parentFolderId: values.parent });
        print(folder, `created folder ${folder.folderId} ${JSON.stringify(folder.name)}`);
        return 0;
      }
      case 'list-uploads': {
        const uploads = await operator.listUploads({ projectId: values.project });
        print(uploads, uploads.map(uploadLine).join('\n') || '(no uploads)');
        return 0;
      }
      case 'list-orders': {
        const orders = await operator.listOrders({ projectId: values.project });
        print(orders, orders.map(orderLine).join('\n') || '(no orders)');
        return 0;
      }
      case 'advance-order': {
        if (args.length < 1 || args.length > 2) throw new OperatorError('Usage: sandbox operator advance-order <orderId> [status]');
        const order = await operator.advanceOrder(args[0], args[1] as OrderStatus | undefined);
        print(order, `order ${order.orderId} is now ${order.status}`);
        return 0;
      }
      default:
        throw new OperatorError(`Unknown operator command: ${command}\n\n${OPERATOR_HELP}`);
    }
  } finally {
    db.close();
  }
}

async function faults(args: string[], values: Values, out: (s: string) => void): Promise<number> {
  const [action, json] = args;
  const runtime = readRuntimeInfo(values.data);
  const url = values.url ?? runtime?.baseUrl;
  const secret = values.secret ?? runtime?.adminSecret;
  if (!url || !secret) throw new OperatorError(`No running sandbox found in ${values.data}; pass --url and --secret`);
  const endpoint = `${new URL(url).origin}/__admin/faults`;
  const init: RequestInit = { headers: { 'X-Admin-Secret': secret, 'Content-Type': 'application/json' } };
  if (action === 'set') {
    if (!json) throw new OperatorError('Usage: sandbox operator faults set <json>');
    try {
      init.body = JSON.stringify(JSON.parse(json));
    } catch {
      throw new OperatorError(`Not valid JSON: ${json}`);
    }
    init.method = 'POST';
  } else if (action === 'clear') init.method = 'DELETE';
  else if (action === 'list') init.method = 'GET';
  else throw new OperatorError('Usage: sandbox operator faults set <json> | list | clear');
  const response = await fetch(endpoint, init).catch((error: Error) => {
    throw new OperatorError(`Cannot reach the sandbox at ${endpoint}: ${error.message}`);
  });
  const body = (await response.json()) as { success: boolean; data?: unknown; error?: { message: string } };
  if (!body.success) throw new OperatorError(`Sandbox answered ${response.status}: ${body.error?.message}`);
  out(JSON.stringify(body.data, null, 2));
  return 0;
}

function orderLine(order: OrderRecord): string {
  return `${order.orderId}  ${order.status}  ref ${order.orderReference}  project ${order.projectId}  ${order.createdAt}`;
}

function modelLine(model: ModelRecord): string {
  return `${model.modelId}  ${JSON.stringify(model.name)}  ${model.format}  ${model.sizeBytes} bytes  folder ${model.folderId ?? '-'}  sha256 ${model.sha256.slice(0, 12)}…`;
}

function folderLine(folder: FolderRecord): string {
  return `${folder.folderId}  ${JSON.stringify(folder.name)}  parent ${folder.parentFolderId ?? '-'}  ${folder.modelCount} models`;
}

function uploadLine(upload: UploadRecord): string {
  return `${upload.uploadId}  ${upload.kind}  ${upload.state}  ${upload.offset}/${upload.sizeBytes} bytes (received ${upload.bytesReceived})  ${JSON.stringify(upload.fileName)}`;
}

function assignedText(project: ProjectRecord): string {
  return project.assignedTo.length ? ` assigned to ${project.assignedTo.join(', ')}` : '';
}

function userLine(user: UserRecord): string {
  return `${user.userId}  ${user.email}  projects: ${user.projectIds.join(', ') || '-'}`;
}

function projectLine(project: ProjectRecord): string {
  return `${project.projectId}  ${JSON.stringify(project.name)}  assigned to: ${project.assignedTo.join(', ') || '-'}`;
}
