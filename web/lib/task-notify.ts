/**
 * Opt-in browser notifications for finished background tasks: off until the person turns them on
 * (which asks the browser's permission), remembered in localStorage, and shown only while the page
 * is hidden (another tab), once per task.
 */
const KEY = "wyckoff-edge.task-notify";
const shown = new Set<string>();

/** Whether notifications are on and allowed. */
export function taskNotifyOn(): boolean {
  try {
    return (
      typeof Notification !== "undefined" && Notification.permission === "granted" && localStorage.getItem(KEY) === "1"
    );
  } catch {
    return false;
  }
}

/** Turns them on (asks permission); answers whether they are on now. */
export async function enableTaskNotify(): Promise<boolean> {
  if (typeof Notification === "undefined") return false;
  const permission =
    Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
  if (permission !== "granted") return false;
  try {
    localStorage.setItem(KEY, "1");
  } catch {
    // not remembered
  }
  return true;
}

/** Turns them off. */
export function disableTaskNotify(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing remembered
  }
}

/** Notifies once that a task ended, when on and the page is not in view. */
export function notifyTaskEnded(taskId: string, title: string, body: string): void {
  if (shown.has(taskId) || !taskNotifyOn() || document.visibilityState === "visible") return;
  shown.add(taskId);
  new Notification(title, { body, tag: taskId });
}
