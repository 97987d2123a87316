// What the client needs from each answer. Objects are not strict: fields the service adds are
// ignored, and only what the app uses is required. Where the spec says "not shown", the shape
// accepted is wider than the sandbox's own (docs/api-assumptions.md).
import { z } from 'zod';

export const TokenPair = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
});
export type TokenPair = z.infer<typeof TokenPair>;

const ServiceProject = z
  .object({
    projectId: z.string().optional(),
    id: z.string().optional(),
    name: z.string().optional(),
    projectName: z.string().optional(),
    createdAt: z.string().optional(),
  })
  .refine((p) => p.projectId ?? p.id, { message: 'project has no projectId', path: ['projectId'] })
  .transform((p) => ({
    projectId: (p.projectId ?? p.id) as string,
    name: p.name ?? p.projectName ?? (p.projectId ?? p.id) as string,
    createdAt: p.createdAt ?? null,
  }));

/** A bare array or { projects: [...] }. */
export const ProjectList = z
  .union([z.array(ServiceProject), z.object({ projects: z.array(ServiceProject) })])
  .transform((data) => (Array.isArray(data) ? data : data.projects));

/** A bare boolean or { hasAccess } / { access }. */
export const ProjectAccess = z
  .union([z.boolean(), z.object({ hasAccess: z.boolean() }), z.object({ access: z.boolean() })])
  .transform((data) => (typeof data === 'boolean' ? data : 'hasAccess' in data ? data.hasAccess : data.access));
