// What a launch's arguments mean: the files it opens, and whether it asks for a debugger.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { debuggingSwitches } from '../../electron/shell/debug-switches.ts';
import { openedPaths } from '../../electron/services/opened-files.ts';

test('files are resolved where the launch started; switches are not files', () => {
  assert.deepEqual(openedPaths(['part.stl', '--no-sandbox', '/abs/gear.3mf', '', '../up.obj', '-psn_0_123'], '/home/ada/models'), ['/home/ada/models/part.stl', '/abs/gear.3mf', '/home/ada/up.obj']);
});

test('every form of a debugging switch is found, as Chromium and Node read them', () => {
  const args = ['--remote-debugging-port=9222', '-remote-debugging-pipe', '--inspect', '--inspect-brk=0.0.0.0:9229', '--inspect-port=1', '--remote-debugging-address=0.0.0.0', 'model.stl', '--no-sandbox'];
  assert.deepEqual(debuggingSwitches(args, 'linux'), args.slice(0, 6));
  assert.deepEqual(debuggingSwitches(['/REMOTE-DEBUGGING-PORT=9222', '--Inspect'], 'win32'), ['/REMOTE-DEBUGGING-PORT=9222', '--Inspect']);
  assert.deepEqual(debuggingSwitches(['/remote-debugging-port=9222'], 'linux'), [], 'a path on Linux, not a switch');
  assert.deepEqual(debuggingSwitches(['--', '--inspect'], 'linux'), [], 'after "--" nothing is a switch');
  assert.deepEqual(debuggingSwitches(['--inspector-extra', '--remote-debugging-portal', 'inspect'], 'linux'), []);
});
