// padLeft pads a label for the table of services.
export function padLeft(label, width: number): string {
  return String(label).padStart(width);
}
