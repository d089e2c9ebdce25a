/** The Linux autostart entry: exact content, Exec quoting per the Desktop Entry spec, $APPIMAGE. */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { autostartArgv, autostartEntry, autostartPath, desktopExecArg, linuxAutostartEnabled, setLinuxAutostart } from '../../main/electron/autostart.js';

const packaged = { execPath: '/opt/Nuzo/nuzo', isPackaged: true, appPath: '/opt/Nuzo/resources/app.asar' };

test('installed app: its executable, started hidden', () => {
  assert.equal(
    autostartEntry(packaged),
    [
      '[Desktop Entry]',
      'Type=Application',
      'Version=1.0',
      'Name=Nuzo',
      'Comment=Local-first memory for AI agents',
      'Exec=/opt/Nuzo/nuzo --hidden',
      'Icon=nuzo',
      'Terminal=false',
      'Categories=Utility;',
      'X-GNOME-Autostart-enabled=true',
      '',
    ].join('\n'),
  );
});

test('AppImage: Exec is $APPIMAGE, not the per-launch mount point', () => {
  const target = { ...packaged, execPath: '/tmp/.mount_NuzoAb12/nuzo', appImage: '/home/ada/Applications/Nuzo-0.1.0.AppImage' };
  assert.deepEqual(autostartArgv(target), ['/home/ada/Applications/Nuzo-0.1.0.AppImage', '--hidden']);
  assert.match(autostartEntry(target), /^Exec=\/home\/ada\/Applications\/Nuzo-0\.1\.0\.AppImage --hidden$/m);
  assert.doesNotMatch(autostartEntry(target), /\.mount_/);
  assert.deepEqual(autostartArgv({ ...target, appImage: '' }), ['/tmp/.mount_NuzoAb12/nuzo', '--hidden'], 'an empty APPIMAGE is unset');
});

test('development: electron plus the app folder', () => {
  assert.deepEqual(autostartArgv({ execPath: '/x/electron', isPackaged: false, appPath: '/src/nuzo/.nuzo-dev/electron-app' }), ['/x/electron', '/src/nuzo/.nuzo-dev/electron-app', '--hidden']);
});

test('Exec arguments are quoted and escaped as the spec says', () => {
  assert.equal(desktopExecArg('/opt/Nuzo/nuzo'), '/opt/Nuzo/nuzo');
  assert.equal(desktopExecArg('/home/ada/My Apps/Nuzo.AppImage'), '"/home/ada/My Apps/Nuzo.AppImage"');
  assert.equal(desktopExecArg('/x/$HOME/a"b`c'), '"/x/\\\\$HOME/a\\\\"b\\\\`c"');
  assert.equal(desktopExecArg('/x/back\\slash'), '"/x/back\\\\\\\\slash"');
  assert.equal(desktopExecArg('/x/100%'), '/x/100%%');
  assert.equal(desktopExecArg("/x/it's here"), `"/x/it's here"`);
  assert.throws(() => desktopExecArg('/x/a\nExec=evil'), /line break/);
});

test('the file goes to $XDG_CONFIG_HOME/autostart (else ~/.config/autostart); on and off', { skip: process.platform === 'win32' && 'POSIX modes' }, () => {
  assert.equal(autostartPath('/home/ada', {}), '/home/ada/.config/autostart/nuzo.desktop');
  assert.equal(autostartPath('/home/ada', { XDG_CONFIG_HOME: '/cfg' }), '/cfg/autostart/nuzo.desktop');
  const home = mkdtempSync(join(tmpdir(), 'nuzo-autostart-'));
  try {
    const file = autostartPath(home, {});
    assert.equal(linuxAutostartEnabled(file), false);
    setLinuxAutostart(file, true, packaged);
    assert.equal(linuxAutostartEnabled(file), true);
    assert.equal(readFileSync(file, 'utf8'), autostartEntry(packaged));
    assert.equal(statSync(file).mode & 0o777, 0o644);
    setLinuxAutostart(file, false, packaged);
    assert.equal(existsSync(file), false);
    setLinuxAutostart(file, false, packaged);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
