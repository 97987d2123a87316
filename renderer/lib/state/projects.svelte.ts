import type { AppError, Project } from '../../../electron/contract/channels.ts';
import { asAppError, printdesk, unwrap } from '../bridge.ts';

class ProjectsStore {
  list = $state<Project[] | null>(null);
  selected = $state<Project | null>(null);
  loading = $state(false);
  selecting = $state<string | null>(null);
  error = $state<AppError | null>(null);
  /** the remembered project was checked and opened (or there was none) */
  resolved = $state(false);
  /** The project the picker was opened from, to go back to without choosing (Escape, "Back"). */
  left = $state<Project | null>(null);

  /** Opens the remembered project if it is still accessible, and loads the list either way. */
  restore = async () => {
    this.loading = true;
    this.error = null;
    try {
      const current = unwrap(await printdesk.projects.current());
      this.selected = current.project;
      this.list = unwrap(await printdesk.projects.list());
    } catch (error) {
      this.error = asAppError(error);
    } finally {
      this.loading = false;
      this.resolved = true;
    }
  };

  refresh = async () => {
    this.loading = true;
    this.error = null;
    try {
      this.list = unwrap(await printdesk.projects.list());
    } catch (error) {
      this.error = asAppError(error);
    } finally {
      this.loading = false;
    }
  };

  select = async (projectId: string) => {
    this.selecting = projectId;
    this.error = null;
    try {
      const selection = unwrap(await printdesk.projects.select({ projectId }));
      this.selected = selection.project;
      this.left = null;
    } catch (error) {
      this.error = asAppError(error);
      // Refused: the list is asked again, so that a project this account lost does not stay offered.
      if (this.error.code === 'NO_PERMISSION') {
        const list = await printdesk.projects.list();
        if (list.ok) this.list = list.value;
      }
    } finally {
      this.selecting = null;
    }
  };

  /** Back to the picker, with a fresh list; the choice stays remembered until another is made. */
  showPicker = () => {
    this.left = null;
    this.selected = null;
    void this.refresh();
  };

  /** The picker over the open project, which stays one step away: the top bar's "switch project". */
  switchProject = () => {
    const open = this.selected;
    this.showPicker();
    this.left = open;
  };

  /** Back to the project the picker was opened from, as it was. */
  back = () => {
    if (!this.left) return;
    this.selected = this.left;
    this.left = null;
  };

  reset = () => {
    this.left = null;
    this.list = null;
    this.selected = null;
    this.error = null;
    this.resolved = false;
  };
}

export const projects = new ProjectsStore();
