/** tally.ts: the counts docs/conformance.md reports, read from a pytest JUnit report. */
import { expect, it } from 'vitest';
import { tally } from './tally.js';

const REPORT = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="6">
<testcase classname="tests.compatibility.agent_card.test_agent_card.TestCard" name="test_card" time="0.1" />
<testcase classname="tests.compatibility.core_operations.test_requirements" name="test_must_requirement[CORE-SEND-001-grpc]" time="0.1"></testcase>
<testcase classname="tests.compatibility.core_operations.test_requirements" name="test_must_requirement[CORE-SEND-003-grpc]" time="0.1"><failure message="AssertionError: CORE-SEND-003 failed on grpc: &quot;x&quot; &amp; y&#10;second line">trace</failure></testcase>
<testcase classname="t" name="a" time="0"><skipped type="pytest.skip" message="Transport 'jsonrpc' not configured (filtered by --transport)">s</skipped></testcase>
<testcase classname="t" name="b" time="0"><skipped type="pytest.skip" message="Agent card does not declare capabilities for: ['agent-card']">s</skipped></testcase>
<testcase classname="t" name="c" time="0"><skipped type="pytest.xfail" message="CORE-MULTI-002 failed">s</skipped></testcase>
</testsuite></testsuites>`;

it('counts passed, failed, skipped and xfailed; filtered-out transports apart', () => {
  expect(tally(REPORT)).toEqual({
    passed: 2,
    failed: 1,
    skipped: 1,
    xfailed: 1,
    filtered: 1,
    failures: [
      'tests.compatibility.core_operations.test_requirements::test_must_requirement[CORE-SEND-003-grpc] — AssertionError: CORE-SEND-003 failed on grpc: "x" & y',
    ],
  });
});
