import { A2AClient, textOf, userMessage } from 'a2a-kit/client';

const client = await A2AClient.connect('http://127.0.0.1:8765'); // card → best interface
const reply = await client.sendMessage({ message: userMessage('echo hello') });
if ('task' in reply) console.log(reply.task.status.state, textOf(reply.task.artifacts?.[0]));

for await (const event of client.sendStreamingMessage({ message: userMessage('story 5') })) {
  if ('artifactUpdate' in event) console.log(textOf(event.artifactUpdate.artifact));
}
