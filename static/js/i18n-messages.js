// The message tables, one module per language.
import { en } from "./lang/en.js";
import { ko } from "./lang/ko.js";
import { uk } from "./lang/uk.js";

export const MESSAGES = { en, ko, uk };
