// What a pin is: a full commit id, or a release tag (kubernetes/kubernetes sources only, read from
// the release's Go module: docs/refreshing.md). Pure, so the pages' data can tell them apart too.

/** Whether a pin is a release tag (`v1.37.2`) rather than a commit id. */
export const isReleaseTag = (pin: string): boolean => /^v\d+\.\d+\.\d+$/.test(pin);
