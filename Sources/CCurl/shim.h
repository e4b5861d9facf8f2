#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper per argument type.
static inline CURLcode vouch_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode vouch_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode vouch_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode vouch_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*vouch_curl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode vouch_curl_setopt_write_function(CURL *handle, CURLoption option, vouch_curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}
static inline CURLcode vouch_curl_info_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode vouch_curl_info_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}
// CURLOPT_PREREQFUNCTION (libcurl 7.80): called once a connection is made or reused, before the request is sent.
typedef int (*vouch_curl_prereq_callback)(void *context, char *primary_ip, char *local_ip, int primary_port, int local_port);
static inline CURLcode vouch_curl_setopt_prereq_function(CURL *handle, vouch_curl_prereq_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
}
// CURLOPT_XFERINFOFUNCTION: called often during a transfer and about once a second while nothing arrives;
// "returning a non-zero value from this callback will cause libcurl to abort the transfer".
typedef int (*vouch_curl_xferinfo_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                            curl_off_t upload_total, curl_off_t upload_now);
static inline CURLcode vouch_curl_setopt_xferinfo_function(CURL *handle, vouch_curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
static inline CURLcode vouch_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
// CURLOPT_READFUNCTION: "returns the number of bytes it actually stored"; 0 signals the end of the upload.
typedef size_t (*vouch_curl_read_callback)(char *buffer, size_t size, size_t count, void *context);
static inline CURLcode vouch_curl_setopt_read_function(CURL *handle, vouch_curl_read_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}
// CURLOPT_DEBUGFUNCTION (with CURLOPT_VERBOSE): sees each SMTP command sent (CURLINFO_HEADER_OUT) and each reply line
// (CURLINFO_HEADER_IN); "the callback must return 0".
typedef int (*vouch_curl_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *context);
static inline CURLcode vouch_curl_setopt_debug_function(CURL *handle, vouch_curl_debug_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, callback);
}
