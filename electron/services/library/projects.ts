import { z } from 'zod';
import { Project, type ProjectSelection } from '../../contract/channels.ts';
import type { ApiClient } from '../api/client.ts';
import { HostError, isUnreachable } from '../api/errors.ts';
import type { Preferences } from '../storage/preferences.ts';

export interface ProjectsDeps {
  client: () => ApiClient;
  prefs: Preferences;
  /** e-mail of the signed-in user; throws NOT_SIGNED_IN otherwise */
  signedInEmail: () => string;
}

export function createProjects(deps: ProjectsDeps) {
  const { client, prefs, signedInEmail } = deps;
  let cached: Project[] | null = null;

  /** The service's list; while it cannot be reached, the last one seen. */
  async function list(): Promise<Project[]> {
    const email = signedInEmail();
    const api = client();
    try {
      cached = await api.getProjects();
      prefs.cacheProjects(api.serviceKey, email, cached);
      return cached;
    } catch (error) {
      const saved = z.array(Project).safeParse(prefs.cachedProjects(api.serviceKey, email));
      if (isUnreachable(error) && saved.success) return (cached = saved.data);
      throw error;
    }
  }

  /**
   * Checks access with the service before remembering the choice. Offline, a project of the last list
   * seen opens from it, so drafts can be written on a train; the service checks again once online.
   */
  async function select(projectId: string): Promise<ProjectSelection> {
    const email = signedInEmail();
    const api = client();
    const hasAccess = await api.hasAccessToProject(projectId).catch(async (error: unknown) => {
      if (isUnreachable(error) && (cached ?? (await list())).some((p) => p.projectId === projectId)) return true;
      throw error;
    });
    if (!hasAccess) {
      throw new HostError('NO_PERMISSION', 'You no longer have access to this project. Ask the service operator to assign it to your account.');
    }
    prefs.setSelectedProject(api.serviceKey, email, projectId);
    const project = (cached ?? (await list())).find((p) => p.projectId === projectId) ?? null;
    return { project, hasAccess };
  }

  /** The remembered project, re-checked; a project the user lost access to is forgotten. */
  async function current(): Promise<ProjectSelection> {
    const email = signedInEmail();
    const api = client();
    const projectId = prefs.selectedProject(api.serviceKey, email);
    if (!projectId) return { project: null, hasAccess: false };
    const projects = await list();
    // Offline, the remembered project opens from the cache; access is checked again once online.
    const hasAccess = await api.hasAccessToProject(projectId).catch((error: unknown) => {
      if (isUnreachable(error)) return projects.some((p) => p.projectId === projectId);
      throw error;
    });
    const project = projects.find((p) => p.projectId === projectId) ?? null;
    if (!hasAccess || !project) {
      prefs.setSelectedProject(api.serviceKey, email, null);
      return { project: null, hasAccess: false };
    }
    return { project, hasAccess };
  }

  return { list, select, current, forget: () => void (cached = null) };
}
