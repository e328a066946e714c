export type { Address, Concatenation, ReceivedMessage, ReceivedPart } from './decode.js';
export { type OutcomeMix, parseOutcomeMix } from './outcomes.js';
export { type RunningSmsc, type SmscOptions, type SmscStats, startSmsc } from './smsc.js';
