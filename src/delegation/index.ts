/** `a2a-kit/delegation`: Contract Net and Request-When over A2A (docs/extensions/delegation.md). */
export {};
