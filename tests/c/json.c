/* A small JSON reader for the ayo C API tests; see json.h. */
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
  const char *text;
  size_t at;
  char *err;
  size_t err_len;
  int failed;
  int depth;
} parser;

static void fail(parser *p, const char *what) {
  if (!p->failed) {
    snprintf(p->err, p->err_len, "JSON error at offset %zu: %s", p->at, what);
    p->failed = 1;
  }
}

static void skip_ws(parser *p) {
  for (;;) {
    char c = p->text[p->at];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      p->at++;
    } else {
      return;
    }
  }
}

static int literal(parser *p, const char *word) {
  size_t n = strlen(word);
  if (strncmp(p->text + p->at, word, n) != 0) {
    fail(p, "unexpected text");
    return 0;
  }
  p->at += n;
  return 1;
}

static void free_children(json *v) {
  size_t i;
  for (i = 0; i < v->count; i++) {
    free_children(&v->items[i]);
    if (v->keys) {
      free(v->keys[i]);
    }
  }
  free(v->items);
  free(v->keys);
  free(v->string);
}

static int hex4(parser *p, unsigned *out) {
  unsigned v = 0;
  int i;
  for (i = 0; i < 4; i++) {
    char c = p->text[p->at];
    v <<= 4;
    if (c >= '0' && c <= '9') {
      v |= (unsigned)(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v |= (unsigned)(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      v |= (unsigned)(c - 'A' + 10);
    } else {
      fail(p, "bad \\u escape");
      return 0;
    }
    p->at++;
  }
  *out = v;
  return 1;
}

static size_t put_utf8(char *dst, unsigned cp) {
  if (cp < 0x80) {
    dst[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    dst[0] = (char)(0xC0 | (cp >> 6));
    dst[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    dst[0] = (char)(0xE0 | (cp >> 12));
    dst[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    dst[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  dst[0] = (char)(0xF0 | (cp >> 18));
  dst[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  dst[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  dst[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* Parses a string at p->at (on the opening quote) into a new heap string. */
static char *parse_string(parser *p) {
  size_t start = ++p->at, end = start, n = 0;
  char *out;
  /* An escape never makes the text longer, so the raw length bounds it. */
  while (p->text[end] != '"') {
    if (p->text[end] == '\0') {
      fail(p, "unterminated string");
      return NULL;
    }
    if (p->text[end] == '\\' && p->text[end + 1] != '\0') {
      end++;
    }
    end++;
  }
  out = (char *)malloc(end - start + 1);
  if (!out) {
    fail(p, "out of memory");
    return NULL;
  }
  while (p->text[p->at] != '"') {
    unsigned char c = (unsigned char)p->text[p->at];
    if (c < 0x20) {
      fail(p, "control character in string");
      free(out);
      return NULL;
    }
    if (c != '\\') {
      out[n++] = (char)c;
      p->at++;
      continue;
    }
    p->at++;
    c = (unsigned char)p->text[p->at++];
    switch (c) {
    case '"': out[n++] = '"'; break;
    case '\\': out[n++] = '\\'; break;
    case '/': out[n++] = '/'; break;
    case 'b': out[n++] = '\b'; break;
    case 'f': out[n++] = '\f'; break;
    case 'n': out[n++] = '\n'; break;
    case 'r': out[n++] = '\r'; break;
    case 't': out[n++] = '\t'; break;
    case 'u': {
      unsigned cp, lo;
      if (!hex4(p, &cp)) {
        free(out);
        return NULL;
      }
      if (cp >= 0xD800 && cp < 0xDC00) {
        if (p->text[p->at] != '\\' || p->text[p->at + 1] != 'u') {
          fail(p, "lone high surrogate");
          free(out);
          return NULL;
        }
        p->at += 2;
        if (!hex4(p, &lo) || lo < 0xDC00 || lo > 0xDFFF) {
          fail(p, "bad low surrogate");
          free(out);
          return NULL;
        }
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
      } else if (cp >= 0xDC00 && cp < 0xE000) {
        fail(p, "lone low surrogate");
        free(out);
        return NULL;
      }
      n += put_utf8(out + n, cp);
      break;
    }
    default:
      p->at--;
      fail(p, "bad escape");
      free(out);
      return NULL;
    }
  }
  p->at++;
  out[n] = '\0';
  return out;
}

static int parse_value(parser *p, json *v);

static int parse_number(parser *p, json *v) {
  size_t start = p->at;
  const char *s = p->text;
  char *end;
  if (s[p->at] == '-') {
    p->at++;
  }
  if (s[p->at] == '0') {
    p->at++;
  } else if (s[p->at] >= '1' && s[p->at] <= '9') {
    while (s[p->at] >= '0' && s[p->at] <= '9') {
      p->at++;
    }
  } else {
    fail(p, "bad number");
    return 0;
  }
  if (s[p->at] == '.') {
    p->at++;
    if (!(s[p->at] >= '0' && s[p->at] <= '9')) {
      fail(p, "bad fraction");
      return 0;
    }
    while (s[p->at] >= '0' && s[p->at] <= '9') {
      p->at++;
    }
  }
  if (s[p->at] == 'e' || s[p->at] == 'E') {
    p->at++;
    if (s[p->at] == '+' || s[p->at] == '-') {
      p->at++;
    }
    if (!(s[p->at] >= '0' && s[p->at] <= '9')) {
      fail(p, "bad exponent");
      return 0;
    }
    while (s[p->at] >= '0' && s[p->at] <= '9') {
      p->at++;
    }
  }
  v->type = JSON_NUMBER;
  v->number = strtod(s + start, &end);
  return 1;
}

/* Appends a zeroed child to v; returns it, or NULL when out of memory. */
static json *push(parser *p, json *v, size_t *cap, char *key) {
  if (v->count == *cap) {
    size_t ncap = *cap ? *cap * 2 : 4;
    json *items = (json *)realloc(v->items, ncap * sizeof *items);
    if (!items) {
      fail(p, "out of memory");
      return NULL;
    }
    v->items = items;
    if (v->type == JSON_OBJECT) {
      char **keys = (char **)realloc(v->keys, ncap * sizeof *keys);
      if (!keys) {
        fail(p, "out of memory");
        return NULL;
      }
      v->keys = keys;
    }
    *cap = ncap;
  }
  memset(&v->items[v->count], 0, sizeof v->items[0]);
  if (v->type == JSON_OBJECT) {
    v->keys[v->count] = key;
  }
  return &v->items[v->count++];
}

static int parse_container(parser *p, json *v, char close) {
  size_t cap = 0;
  p->at++;
  skip_ws(p);
  if (p->text[p->at] == close) {
    p->at++;
    return 1;
  }
  for (;;) {
    char *key = NULL;
    json *child;
    skip_ws(p);
    if (v->type == JSON_OBJECT) {
      if (p->text[p->at] != '"') {
        fail(p, "expected a key");
        return 0;
      }
      key = parse_string(p);
      if (!key) {
        return 0;
      }
      skip_ws(p);
      if (p->text[p->at] != ':') {
        free(key);
        fail(p, "expected ':'");
        return 0;
      }
      p->at++;
    }
    child = push(p, v, &cap, key);
    if (!child) {
      free(key);
      return 0;
    }
    if (!parse_value(p, child)) {
      return 0;
    }
    skip_ws(p);
    if (p->text[p->at] == ',') {
      p->at++;
      continue;
    }
    if (p->text[p->at] == close) {
      p->at++;
      return 1;
    }
    fail(p, "expected ',' or the end of the container");
    return 0;
  }
}

static int parse_value(parser *p, json *v) {
  int ok;
  skip_ws(p);
  if (++p->depth > 200) {
    fail(p, "nested too deeply");
    return 0;
  }
  switch (p->text[p->at]) {
  case '{':
    v->type = JSON_OBJECT;
    ok = parse_container(p, v, '}');
    break;
  case '[':
    v->type = JSON_ARRAY;
    ok = parse_container(p, v, ']');
    break;
  case '"':
    v->type = JSON_STRING;
    v->string = parse_string(p);
    ok = v->string != NULL;
    break;
  case 't':
    v->type = JSON_BOOL;
    v->boolean = 1;
    ok = literal(p, "true");
    break;
  case 'f':
    v->type = JSON_BOOL;
    ok = literal(p, "false");
    break;
  case 'n':
    v->type = JSON_NULL;
    ok = literal(p, "null");
    break;
  default:
    ok = parse_number(p, v);
  }
  p->depth--;
  return ok;
}

json *json_parse(const char *text, char *err, size_t err_len) {
  parser p;
  json *root = (json *)calloc(1, sizeof *root);
  p.text = text;
  p.at = 0;
  p.err = err;
  p.err_len = err_len;
  p.failed = 0;
  p.depth = 0;
  if (!root) {
    snprintf(err, err_len, "out of memory");
    return NULL;
  }
  if (parse_value(&p, root)) {
    skip_ws(&p);
    if (text[p.at] == '\0') {
      return root;
    }
    fail(&p, "text after the document");
  }
  json_free(root);
  return NULL;
}

json *json_parse_file(const char *path, char *err, size_t err_len) {
  FILE *f = fopen(path, "rb");
  char *text;
  long size;
  json *root;
  if (!f) {
    snprintf(err, err_len, "cannot open %s", path);
    return NULL;
  }
  if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    snprintf(err, err_len, "cannot size %s", path);
    return NULL;
  }
  text = (char *)malloc((size_t)size + 1);
  if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) {
    free(text);
    fclose(f);
    snprintf(err, err_len, "cannot read %s", path);
    return NULL;
  }
  fclose(f);
  text[size] = '\0';
  if (strlen(text) != (size_t)size) {
    free(text);
    snprintf(err, err_len, "%s contains a NUL byte", path);
    return NULL;
  }
  root = json_parse(text, err, err_len);
  free(text);
  return root;
}

void json_free(json *value) {
  if (value) {
    free_children(value);
    free(value);
  }
}

const json *json_get(const json *obj, const char *key) {
  size_t i;
  if (!obj || obj->type != JSON_OBJECT) {
    return NULL;
  }
  for (i = 0; i < obj->count; i++) {
    if (strcmp(obj->keys[i], key) == 0) {
      return &obj->items[i];
    }
  }
  return NULL;
}

const json *json_at(const json *arr, size_t i) {
  if (!arr || arr->type != JSON_ARRAY || i >= arr->count) {
    return NULL;
  }
  return &arr->items[i];
}

int json_int(const json *value) {
  if (!value || value->type != JSON_NUMBER) {
    return -1;
  }
  return (int)value->number;
}
