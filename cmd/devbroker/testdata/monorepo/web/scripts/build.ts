// A build script, outside the project's include.
export const retries: number = "3";
