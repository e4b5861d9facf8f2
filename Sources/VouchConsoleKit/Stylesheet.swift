/// The console's one stylesheet, embedded in the binary and served with a content hash in its path.
///
/// Colours meet WCAG 2.2 AA on white: text #0b0c0c (19.6:1), links #1d5aa0 (6.9:1), errors #b42318 (6.6:1), the
/// focus ring black on yellow (#ffdd00, 14.6:1 with the text). Sizes are in rem, so 200 % text grows everything,
/// and no width is fixed, so the pages reflow at 320 CSS pixels (docs/console.md, "Accessibility"). Links,
/// buttons and fields show their focus on `:focus`, not only `:focus-visible`, as GOV.UK does: the ring never depends
/// on the browser's guess of how the focus got there. Visually hidden text starts and ends with a no-break space, as
/// GOV.UK Frontend's does: Chromium drops the space that starts such text ("Give feedback<span> on …"), and Orca said
/// "Give feedbackon" (docs/screen-reader-tests.md).
public enum Stylesheet {
    public static let css = """
    *,*::before,*::after{box-sizing:border-box}
    html{font-size:100%;-webkit-text-size-adjust:100%}
    body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:1.1875rem;line-height:1.45;color:#0b0c0c;background:#fff;overflow-wrap:anywhere}
    .width{max-width:60rem;margin:0 auto;padding:0 1rem}
    a{color:#1d5aa0;text-decoration:underline;text-decoration-thickness:max(1px,.0625rem);text-underline-offset:.15em}
    a:visited{color:#4c2c92}
    a:hover{color:#003078;text-decoration-thickness:max(3px,.1875rem)}
    a:focus,button:focus,input:focus,textarea:focus,select:focus,[tabindex]:focus{outline:3px solid #ffdd00;outline-offset:0;box-shadow:0 0 0 6px #0b0c0c}
    a:focus{color:#0b0c0c;background:#ffdd00;box-shadow:0 -2px #ffdd00,0 4px #0b0c0c;outline:none;text-decoration:none}
    main:focus,.error-summary:focus,.banner:focus{outline:3px solid #ffdd00;box-shadow:0 0 0 6px #0b0c0c}
    .skip-link{position:absolute;left:-9999rem;top:0;padding:.5rem 1rem;background:#ffdd00;color:#0b0c0c}
    .skip-link:focus{position:static;display:block}
    .visually-hidden{position:absolute!important;width:1px!important;height:1px!important;margin:0!important;padding:0!important;overflow:hidden!important;clip:rect(0 0 0 0)!important;clip-path:inset(50%)!important;border:0!important;white-space:nowrap!important}
    .visually-hidden::before,.visually-hidden::after{content:"\\00a0"}
    .header{background:#0b0c0c;color:#fff;padding:.75rem 0;border-bottom:.5rem solid #1d5aa0}
    .header__inner{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
    .header a,.header a:visited{color:#fff}
    .header a:focus{color:#0b0c0c}
    .header__brand{font-weight:700;font-size:1.5rem;text-decoration:none}
    .language-switcher{flex-basis:100%}
    .language-switcher__list{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;justify-content:flex-end;gap:.25rem 1rem}
    .language-switcher a{display:inline-block;min-height:1.5rem;padding:.125rem .25rem}
    .language-switcher a[aria-current]{font-weight:700;text-decoration-thickness:max(3px,.1875rem)}
    .navigation__list{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
    .navigation__list a[aria-current]{font-weight:700;text-decoration-thickness:max(3px,.1875rem)}
    .header__account{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center;margin-left:auto}
    .header__who{margin:0}
    .link-button{font:inherit;color:#fff;background:none;border:0;padding:0;text-decoration:underline;cursor:pointer}
    .link-button:focus{color:#0b0c0c;background:#ffdd00}
    main{display:block;padding:1.5rem 0 2.5rem}
    .footer{border-top:1px solid #b1b4b6;background:#f3f2f1;padding:1.25rem 0}
    h1,.heading-l{font-size:2rem;line-height:1.15;margin:0 0 1.25rem;font-weight:700}
    h2,.heading-m{font-size:1.5rem;line-height:1.2;margin:1.75rem 0 1rem;font-weight:700}
    h3,.heading-s{font-size:1.1875rem;margin:1.25rem 0 .75rem;font-weight:700}
    .label-wrapper{margin:0 0 .75rem}
    p,.body{margin:0 0 1.25rem}
    .lead{font-size:1.5rem}
    .hint{color:#484949;margin-bottom:.75rem}
    .caption{color:#484949;margin:0 0 .5rem}
    .back-link{display:inline-block;margin-top:1rem;padding-left:.9rem;position:relative}
    .back-link::before{content:"";position:absolute;left:.15rem;top:50%;width:.4rem;height:.4rem;border:solid currentColor;border-width:2px 0 0 2px;transform:translateY(-50%) rotate(-45deg)}
    .form-group{margin-bottom:1.75rem}
    .form-group--error{border-left:.3rem solid #b42318;padding-left:.9rem}
    .fieldset{margin:0;padding:0;border:0;min-width:0}
    .fieldset__legend{padding:0;margin-bottom:.5rem;font-weight:700;max-width:100%;white-space:normal}
    .fieldset__legend--heading{font-weight:400}
    .label{display:block;font-weight:700;margin-bottom:.35rem}
    .label--heading{font-weight:inherit;margin:0}
    .error-message{color:#b42318;font-weight:700;margin:0 0 .75rem}
    .input,.textarea{display:block;width:100%;font:inherit;padding:.35rem .5rem;border:2px solid #0b0c0c;border-radius:0;background:#fff;color:#0b0c0c}
    .input{min-height:2.5rem}
    .input--short{max-width:12rem}
    .input--medium{max-width:24rem}
    .input--error,.textarea--error{border-color:#b42318;border-width:3px}
    .choices{display:flex;flex-direction:column;gap:.6rem}
    .choices--inline{flex-direction:row;flex-wrap:wrap;gap:.6rem 1.5rem}
    .choice{display:grid;grid-template-columns:2.75rem minmax(0,1fr);align-items:start}
    .choice__input{width:2.25rem;height:2.25rem;margin:0;accent-color:#0b0c0c}
    .choice__label{padding:.35rem .5rem 0 .25rem;cursor:pointer}
    .choice__hint{grid-column:2;padding-left:.25rem;margin:0}
    .choices__divider{margin:.25rem 0 .25rem .5rem}
    .button{display:inline-block;font:inherit;font-weight:600;line-height:1.2;color:#fff;background:#00703c;border:2px solid transparent;border-radius:0;box-shadow:0 2px 0 #002d18;padding:.55rem .9rem .45rem;margin:0 1rem 1.5rem 0;cursor:pointer;text-decoration:none;text-align:center;min-height:2.75rem}
    a.button,a.button:visited{color:#fff}
    .button:hover{background:#005a30}
    .button:focus{color:#0b0c0c;background:#ffdd00;border-color:#ffdd00;outline:3px solid transparent;box-shadow:inset 0 0 0 1px #ffdd00,0 2px 0 #0b0c0c}
    .button--secondary,a.button--secondary,a.button--secondary:visited{color:#0b0c0c;background:#e4e6e7;box-shadow:0 2px 0 #858686}
    .button--secondary:hover{background:#d0d2d3}
    .button--warning{background:#b42318;box-shadow:0 2px 0 #55150b}
    .button--warning:hover{background:#8f1c13}
    .button-group{display:flex;flex-wrap:wrap;align-items:baseline;gap:0 1rem}
    .error-summary{border:.3rem solid #b42318;padding:1rem;margin-bottom:2rem}
    .error-summary__title{margin-top:0}
    .error-summary__list{margin:0;padding-left:0;list-style:none}
    .error-summary__list a,.error-summary__list a:visited{color:#b42318;font-weight:700}
    .error-summary__list a:focus{color:#0b0c0c}
    .banner{border:.3rem solid #1d5aa0;margin-bottom:2rem}
    .banner--success{border-color:#00703c}
    .banner__title{margin:0;padding:.25rem 1rem .35rem;font-size:1.1875rem;color:#fff;background:#1d5aa0}
    .banner--success .banner__title{background:#00703c}
    .banner__content{padding:1rem}
    .banner__heading{font-weight:700;font-size:1.3rem;margin:0 0 .5rem}
    .banner__content>:last-child{margin-bottom:0}
    .warning-text{display:flex;gap:.75rem;align-items:flex-start;margin-bottom:1.5rem}
    .warning-text__icon{flex:none;display:inline-flex;justify-content:center;align-items:center;width:2.2rem;height:2.2rem;border-radius:50%;background:#0b0c0c;color:#fff;font-weight:700;font-size:1.5rem}
    .warning-text__text{padding-top:.2rem}
    .summary-list{margin:0 0 2rem}
    .summary-list__row{display:flex;flex-wrap:wrap;gap:.25rem 1rem;border-bottom:1px solid #b1b4b6;padding:.6rem 0}
    .summary-list__key{font-weight:700;flex:1 1 12rem;margin:0}
    .summary-list__value{flex:2 1 16rem;margin:0}
    .summary-list__value>:last-child{margin-bottom:0}
    .summary-list__actions{flex:0 0 auto;margin:0}
    .table{width:100%;border-collapse:collapse;margin-bottom:2rem}
    .table__caption{text-align:left;font-weight:700;font-size:1.5rem;margin-bottom:.75rem}
    .table th,.table td{text-align:left;vertical-align:top;padding:.6rem 1rem .6rem 0;border-bottom:1px solid #b1b4b6;overflow-wrap:anywhere}
    .tag{display:inline-block;padding:.15rem .5rem;font-weight:700;color:#0b0c0c;background:#e4e6e7;border:1px solid #0b0c0c}
    .tag--good{background:#cce2d8;color:#005a30;border-color:#005a30}
    .tag--bad{background:#f6d7d2;color:#8f1c13;border-color:#8f1c13}
    .tag--waiting{background:#fff7bf;color:#594d00;border-color:#594d00}
    .list{padding-left:1.25rem;margin:0 0 1.25rem}
    .list--plain{list-style:none;padding-left:0}
    .list>li{margin-bottom:.4rem}
    .panel{border:.3rem solid #00703c;padding:1.5rem;margin-bottom:2rem;text-align:center}
    .panel__title{margin-top:0}
    .inset{border-left:.6rem solid #b1b4b6;padding:.75rem 1rem;margin:0 0 1.5rem}
    .secret{font-family:ui-monospace,"DejaVu Sans Mono",monospace;overflow-wrap:anywhere;background:#f3f2f1;padding:.75rem;border:1px solid #b1b4b6}
    @media (forced-colors:active){.tag,.button,.banner__title{border:2px solid CanvasText}.choice__input{forced-color-adjust:auto}}
    @media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}
    @media (max-width:40rem){h1,.heading-l{font-size:1.6rem}.width{padding:0 .75rem}.button{width:100%;margin-right:0}}

    """ + maintainerRules

    /// Where the stylesheet is served; the hash changes with the content, so a cached copy is never stale.
    public static let path = "/console/assets/console-" + fingerprint(css) + ".css"

    /// FNV-1a over the bytes, in hexadecimal: enough to tell one version of the file from the next.
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
