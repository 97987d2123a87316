// The service operator's commands (spec section 1: projects are created and assigned by the
// operator, never through the API). Used in-process via `sandbox.operator` and by the CLI.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from './db/open.ts';
import { checkReceivedFile } from './model-check.ts';
import { hashPassword } from './passwords.ts';
import * as accounts from './store/accounts.ts';
import type { ProjectRecord, UserRecord } from './store/accounts.ts';
import { createFolder, listFolders, parentIn } from './store/folders.ts';
import type { FolderRecord } from './store/folders.ts';
import { insertModel, MODEL_FORMATS, modelFormatOf, modelsOfProject, storeModelFile } from './store/models.ts';
import type { ModelRecord } from './store/models.ts';
import { listOrders, ORDER_STATUSES, setOrderStatus, TRANSITIONS, getOrder } from './store/orders.ts';
import type { OrderRecord, OrderStatus } from './store/orders.ts';
import { listUploads } from './store/uploads.ts';
import type { UploadRecord } from './store/uploads.ts';
import { MAX_UPLOAD_BYTES } from './upload-files.ts';
import { isEmail, isGuid } from './validate.ts';

export type { FolderRecord, ModelRecord, OrderRecord, OrderStatus, ProjectRecord, UploadRecord, UserRecord };

export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorError';
  }
}

export interface Operator {
  addUser(email: string, password: string): Promise<UserRecord>;
  createProject(name: string, options?: { assign?: string }): Promise<ProjectRecord>;
  assign(projectId: string, email: string): Promise<ProjectRecord>;
  unassign(projectId: string, email: string): Promise<ProjectRecord>;
  listUsers(): Promise<UserRecord[]>;
  listProjects(): Promise<ProjectRecord[]>;
  /** Registers a model file (.stl, .obj, .3mf) in a project without going through an upload. */
  addModel(projectId: string, filePath: string, options?: { name?: string }): Promise<ModelRecord>;
  listModels(projectId: string): Promise<ModelRecord[]>;
  listFolders(projectId: string): Promise<FolderRecord[]>;
  createFolder(projectId: string, name: string, options?: { parentFolderId?: string }): Promise<FolderRecord>;
  /** Upload sessions with their byte counts: what a test checks to prove nothing was sent twice. */
  listUploads(options?: { projectId?: string }): Promise<UploadRecord[]>;
  listOrders(options?: { projectId?: string }): Promise<OrderRecord[]>;
  /** Moves an order to `status`, or to its next state in the normal flow when absent. */
  advanceOrder(orderId: string, status?: OrderStatus): Promise<OrderRecord>;
}

export const MIN_PASSWORD_LENGTH = 8;

export function createOperator(db: Db, dataDir: string): Operator {
  function user(email: string): accounts.UserRow {
    const row = accounts.findUserByEmail(db, email);
    if (!row) throw new OperatorError(`No user with e-mail ${email}`);
    return row;
  }

  function project(projectId: string): ProjectRecord {
    const record = isGuid(projectId) ? accounts.projectRecord(db, projectId) : undefined;
    if (!record) throw new OperatorError(`No project with id ${projectId}`);
    return record;
  }

  function userRecord(email: string): UserRecord {
    return accounts.listUsers(db).find((u) => u.email.toLowerCase() === email.trim().toLowerCase())!;
  }

  return {
    async addUser(email, password) {
      if (!isEmail(email.trim())) throw new OperatorError(`Not an e-mail address: ${email}`);
      if (password.length < MIN_PASSWORD_LENGTH) throw new OperatorError(`Password must have at least ${MIN_PASSWORD_LENGTH} characters`);
      if (accounts.findUserByEmail(db, email)) throw new OperatorError(`A user with e-mail ${email} already exists`);
      const hash = await hashPassword(password);
      accounts.insertUser(db, email, hash);
      return userRecord(email);
    },
    async createProject(name, options = {}) {
      const trimmed = name.trim();
      if (!trimmed) throw new OperatorError('Project name must not be empty');
      const member = options.assign === undefined ? undefined : user(options.assign);
      const projectId = db.transaction(() => {
        const id = accounts.insertProject(db, trimmed);
        if (member) accounts.addMember(db, id, member.user_id);
        return id;
      })();
      return project(projectId);
    },
    async assign(projectId, email) {
      accounts.addMember(db, project(projectId).projectId, user(email).user_id);
      return project(projectId);
    },
    async unassign(projectId, email) {
      const removed = accounts.removeMember(db, project(projectId).projectId, user(email).user_id);
      if (!removed) throw new OperatorError(`${email} is not assigned to project ${projectId}`);
      return project(projectId);
    },
    async listUsers() {
      return accounts.listUsers(db);
    },
    async listProjects() {
      return accounts.listProjects(db);
    },
    async addModel(projectId, filePath, options = {}) {
      const { projectId: id } = project(projectId);
      const format = modelFormatOf(filePath);
      if (!format) throw new OperatorError(`Not a model file (${MODEL_FORMATS.join(', ')}): ${filePath}`);
      const size = fs.statSync(filePath, { throwIfNoEntry: false })?.size;
      if (size === undefined) throw new OperatorError(`No such file: ${filePath}`);
      if (size === 0 || size > MAX_UPLOAD_BYTES) throw new OperatorError(`A model file must hold 1 byte to ${MAX_UPLOAD_BYTES} bytes`);
      const check = await checkReceivedFile(filePath, filePath, size);
      if (!check.ok) throw new OperatorError(`${filePath}: ${check.reason}`);
      const sha256 = storeModelFile(dataDir, fs.readFileSync(filePath));
      const fileName = path.basename(filePath);
      const name = options.name?.trim() || path.basename(fileName, path.extname(fileName));
      return insertModel(db, { projectId: id, name, fileName, format, sizeBytes: size, sha256 });
    },
    async listModels(projectId) {
      return modelsOfProject(db, project(projectId).projectId);
    },
    async listFolders(projectId) {
      return listFolders(db, project(projectId).projectId);
    },
    async createFolder(projectId, name, options = {}) {
      const { projectId: id } = project(projectId);
      const trimmed = name.trim().normalize('NFC');
      if (!trimmed || trimmed.length > 100 || /\p{Cc}/u.test(trimmed)) throw new OperatorError('A folder name has 1 to 100 characters and no control characters');
      try {
        const parent = options.parentFolderId ? parentIn(db, id, options.parentFolderId.toLowerCase()).folderId : null;
        return createFolder(db, { projectId: id, parentFolderId: parent, name: trimmed });
      } catch (error) {
        throw new OperatorError((error as Error).message);
      }
    },
    async listUploads(options = {}) {
      return listUploads(db, { projectId: options.projectId === undefined ? undefined : project(options.projectId).projectId });
    },
    async listOrders(options = {}) {
      return listOrders(db, { projectId: options.projectId === undefined ? undefined : project(options.projectId).projectId });
    },
    async advanceOrder(orderId, status) {
      if (status !== undefined && !ORDER_STATUSES.includes(status)) {
        throw new OperatorError(`Unknown status ${status}; one of ${ORDER_STATUSES.join(', ')}`);
      }
      const order = isGuid(orderId) ? getOrder(db, orderId) : undefined;
      if (!order) throw new OperatorError(`No order with id ${orderId}`);
      const next = status ?? TRANSITIONS[order.status][0];
      if (!next) throw new OperatorError(`Order ${orderId} is ${order.status}; it has no next state`);
      const result = setOrderStatus(db, order.orderId, next);
      if (typeof result === 'string') throw new OperatorError(result);
      return result;
    },
  };
}
