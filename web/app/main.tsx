import '../shared/style.css';
import './app.css';
import { render } from 'preact';
import { App } from './App';

render(<App />, document.getElementById('app')!);
