import { createApp } from './app';

createApp(document.getElementById('app')!);
