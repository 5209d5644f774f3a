// Notices over the canvas: a command or a parameter of the address that was
// wrong, and was left out. The canvas plays on under them; the × button, or
// Esc (embed.js), dismisses them. The newest four show.
const fabriclabNotice = (() => {
  "use strict";
  const box = document.getElementById("notice");
  const list = document.getElementById("notice-list");
  const hide = () => { box.hidden = true; list.textContent = ""; };
  document.getElementById("notice-close").addEventListener("click", hide);
  const show = (text) => {
    const li = document.createElement("li");
    li.textContent = text;
    list.append(li);
    while (list.children.length > 4) list.firstElementChild.remove();
    box.hidden = false;
  };
  return { show, hide, shown: () => !box.hidden };
})();
