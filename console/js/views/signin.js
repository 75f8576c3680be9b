// signin.js — a portal app's id and secret (client credential), or an
// installed app's access token and the customer it acts for.
import * as api from '../api.js';
import {h, clear, field, apiError} from '../dom.js';

function signForm(legend, fields, submit, onSubmit) {
  const out = h('div', {class: 'form-result'});
  const form = h('form', {class: 'card', novalidate: true},
    h('fieldset', {}, h('legend', {}, legend), fields,
      h('button', {type: 'submit'}, submit)), out);
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    const button = form.querySelector('button');
    button.disabled = true;
    clear(out);
    try {
      await onSubmit(new FormData(form));
    } catch (err) {
      clear(out, apiError(err));
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

export function render(main, done) {
  const client = signForm('Portal app (client credential)', [
    field('App id', h('input', {name: 'app_id', required: true, autocomplete: 'username', spellcheck: 'false'})),
    field('Secret', h('input', {name: 'secret', type: 'password', required: true, autocomplete: 'current-password'})),
  ], 'Sign in', async fd => {
    await api.signInClient(fd.get('app_id').trim(), fd.get('secret').trim());
    done();
  });
  const installed = signForm("Installed app's token", [
    // not a password field: a browser offers to keep those in its password
    // store, which would outlive the tab; masked by CSS instead (.masked)
    field('Access token', h('input', {name: 'token', class: 'masked', required: true, autocomplete: 'off',
      spellcheck: 'false', autocapitalize: 'off'}), 'From POST /oauth/access_token (authorization code flow)'),
    field('Customer id', h('input', {name: 'customer', required: true, spellcheck: 'false'}),
      'The customer the app is installed for (parapet_account in the token result)'),
  ], 'Use token', async fd => {
    await api.signInToken(fd.get('token').trim(), fd.get('customer').trim());
    done();
  });
  clear(main,
    h('h1', {}, 'Sign in'),
    h('p', {}, 'The console calls the public API with your token, which it keeps in this tab\'s memory ' +
      'only: closing or reloading the tab signs you out.'),
    h('div', {class: 'grid two'}, client, installed));
  main.querySelector('input').focus();
}
