/** The deep-dive pipeline's steps as defined for the product (read from CAPABILITIES, not copied). */
import { CAPABILITIES } from "../../../worker/runtime/profiles/definitions";

const deepDive = CAPABILITIES.find((c) => c.id === "deep-dive");
if (!deepDive?.steps) throw new Error("the deep-dive capability has no steps");

/** Its steps, in order. */
export const DEEP_DIVE_STEPS = deepDive.steps;
