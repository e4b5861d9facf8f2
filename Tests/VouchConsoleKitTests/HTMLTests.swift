import Testing
@testable import VouchConsoleKit

struct HTMLTests {
    @Test func interpolatedTextIsEscaped() {
        let comment = "<script>alert(\"x\")</script> & 'quotes'"
        let html: HTML = "<p title=\"\(comment)\">\(comment)</p>"
        #expect(html.markup == "<p title=\"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;\">"
            + "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</p>")
    }

    @Test func interpolatedMarkupIsKept() {
        let inner: HTML = "<strong>\("a<b")</strong>"
        let outer: HTML = "<p>\(inner)</p>"
        #expect(outer.markup == "<p><strong>a&lt;b</strong></p>")
    }

    @Test func nonASCIITextPassesUnchanged() {
        let html: HTML = "\("Zoë 😀 ümlaut")"
        #expect(html.markup == "Zoë 😀 ümlaut")
    }
}
