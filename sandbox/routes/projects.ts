// GET /Project/GetProjects and GET /Project/HasAccesToProject (path spelled as in the spec).
import { ok } from '../http.ts';
import type { Route } from '../router.ts';
import { hasProjectAccess, projectsOfUser } from '../store/accounts.ts';
import { requireGuid } from '../validate.ts';

export const getProjects: Route = {
  method: 'GET',
  path: '/Project/GetProjects',
  auth: true,
  body: 'none',
  handle(ctx) {
    return ok({ projects: projectsOfUser(ctx.services.db, ctx.user!.user_id) });
  },
};

export const hasAccessToProject: Route = {
  method: 'GET',
  path: '/Project/HasAccesToProject',
  auth: true,
  body: 'none',
  handle(ctx) {
    const projectId = requireGuid(ctx.query.get('projectId'), 'Project id');
    // An unknown project answers false like a foreign one, so ids cannot be probed for existence.
    return ok({ projectId, hasAccess: hasProjectAccess(ctx.services.db, ctx.user!.user_id, projectId) });
  },
};
