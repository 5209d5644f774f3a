// Why the canvas's files could not be fetched, when the host is the cause:
// in a sandboxed frame (an opaque origin, self.origin "null") every fetch is
// cross-origin, and a host that sends no Access-Control-Allow-Origin makes it
// fail. fabriclabHostTrouble(url, err) resolves to that explanation (with the
// README's recipe shown under the error), or null for any other failure.
const fabriclabHostTrouble = (url, err, t) => {
  "use strict";
  if (self.origin !== "null" || !(err instanceof TypeError)) return Promise.resolve(null);
  // A no-cors fetch gets an opaque answer if the server answered at all: then only the header is missing.
  return fetch(url, { mode: "no-cors" }).then(() => {
    const recipe = document.getElementById("error-recipe");
    recipe.textContent = t("embed.error.cors.recipe");
    recipe.hidden = false;
    return t("embed.error.cors", url);
  }, () => null);
};
