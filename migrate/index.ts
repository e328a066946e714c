/**
 * Moving a service off ASMX safely: record a live service's traffic (`startRecorder`), replay it
 * against a new server and compare the answers structurally (`replay`), report the differences
 * (`renderReplayReport`). docs/migrate.md walks through it.
 */
export { classify, type Classified, type ExchangeBinding } from './classify.js';
export { canonicalText } from './canonical.js';
export { declaredTypeNormaliser, readWsdlFile, recordedDescriptor } from './declared-types.js';
export { compareOutlines, type Difference, type DifferenceKind, groupPath } from './compare.js';
export { pathIgnorer } from './ignore.js';
export { type Answer, type OutlineEntry, outline, outlineEntries, type TextNormaliser } from './outline.js';
export { startRecorder, type Recorder, type RecorderOptions } from './recorder.js';
export {
  DEFAULT_STORE_LIMITS,
  type Exchange,
  type LoadedRecording,
  type RecordingMeta,
  RecordingError,
  readRecording,
  type StoreLimits,
} from './recording.js';
export { Redactor, secretFieldsOfWsdl } from './redact.js';
export { readReplayBaseline, writeReplayBaseline } from './baseline.js';
export { replay, type ReplayOptions } from './replay.js';
export { REPLAY_REPORTERS, renderReplayReport, type ReplayReporterName, summaryLine, verdict } from './report/index.js';
export type * from './types.js';
