import type { Menu, MenuItemConstructorOptions } from 'electron';

/** `devTools`: only in a development run; a packaged app gives no console to paste into. */
export function buildMenu(menu: Pick<typeof Menu, 'buildFromTemplate'>, appName: string, devTools = false): Menu {
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ label: appName, role: 'appMenu' as const }] : []),
    { label: 'File', submenu: [isMac ? { role: 'close' } : { role: 'quit' }] },
    { label: 'Edit', role: 'editMenu' },
    {
      label: 'View',
      submenu: [{ role: 'reload' }, ...(devTools ? [{ role: 'toggleDevTools' as const }] : []), { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }],
    },
    { label: 'Window', role: 'windowMenu' },
  ];
  return menu.buildFromTemplate(template);
}
