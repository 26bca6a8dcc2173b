import { padLeft } from "./format";

export const title: string = padLeft("api", 8);
