/** Runs before paint so a page never flashes the wrong theme: the remembered choice, else the system's. */
export const THEME_INIT_SCRIPT = `try{var t=localStorage.getItem("toolscope.theme");if(t==="dark"||(!t&&matchMedia("(prefers-color-scheme: dark)").matches))document.documentElement.classList.add("dark")}catch(e){}`;

/** The static docs site's theme switch (no React there): the same class and the same remembered choice. */
export const THEME_TOGGLE_SCRIPT = `document.addEventListener("DOMContentLoaded",function(){var b=document.querySelector("[data-testid=theme-toggle]");if(b)b.addEventListener("click",function(){var d=document.documentElement.classList.toggle("dark");try{localStorage.setItem("toolscope.theme",d?"dark":"light")}catch(e){}})});`;
