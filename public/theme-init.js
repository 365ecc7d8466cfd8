// Runs render-blocking in <head> on every page, so both take effect before first paint:
// the theme the reader chose with ThemeToggle.astro, and a `js` class for script-only UI.
document.documentElement.classList.add('js');
try{var t=localStorage.getItem('theme');if(t==='dark'||t==='light')document.documentElement.dataset.theme=t}catch(e){}
