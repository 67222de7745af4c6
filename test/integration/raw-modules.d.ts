/** Vite `?raw` imports (file contents as a string), used to load the vega-datasets CSV in workerd. */
declare module "*?raw" {
  const text: string;
  export default text;
}
