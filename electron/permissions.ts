// Web permissions (camera, microphone, notifications, geolocation, HID, serial, USB, ...) for the
// app's session. The renderer needs none of them, so every request and every check is refused.
// Free of runtime Electron imports, so it is tested in plain Node with a fake session.

/** The part of Electron's Session this module configures. */
export interface PermissionSessionLike {
  setPermissionRequestHandler(handler: ((webContents: unknown, permission: string, callback: (granted: boolean) => void, details: unknown) => void) | null): void;
  setPermissionCheckHandler(handler: ((webContents: unknown, permission: string, requestingOrigin: string, details: unknown) => boolean) | null): void;
  setDevicePermissionHandler(handler: ((details: unknown) => boolean) | null): void;
}

/** Permissions the renderer may be granted. Empty: the app uses no web permission. */
export const GRANTED_PERMISSIONS: ReadonlySet<string> = new Set<string>();

export function permissionAllowed(permission: string): boolean {
  return GRANTED_PERMISSIONS.has(permission);
}

/** Installs deny-by-default handlers; `log` hears every refused request (not checks, which are frequent). */
export function installPermissionGuards(ses: PermissionSessionLike, log: (message: string) => void = () => {}): void {
  ses.setPermissionRequestHandler((_wc, permission, callback) => {
    const granted = permissionAllowed(permission);
    if (!granted) log(`refused the renderer's request for the '${permission}' permission`);
    callback(granted);
  });
  ses.setPermissionCheckHandler((_wc, permission) => permissionAllowed(permission));
  ses.setDevicePermissionHandler(() => false);
}
