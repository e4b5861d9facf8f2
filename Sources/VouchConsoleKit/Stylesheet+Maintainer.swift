extension Stylesheet {
    /// The maintainer's pages: lists to choose from (`Select`) and a repeated group of fields (an assistive technology
    /// with its platform and version), framed so each group reads as one.
    static let maintainerRules = """
    .select{display:block;font:inherit;min-height:2.5rem;max-width:100%;padding:.3rem .5rem;border:2px solid #0b0c0c;border-radius:0;background:#fff;color:#0b0c0c}
    .select--error{border-color:#b42318;border-width:3px}
    .field-row{border:0;border-left:.3rem solid #b1b4b6;margin:0 0 1.75rem;padding:0 0 0 .9rem;min-width:0}
    .field-row .form-group{margin-bottom:1rem}

    """
}
