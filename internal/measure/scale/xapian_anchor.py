"""Xapian anchor of paperlens measure scale.

  xapian_anchor.py check
  xapian_anchor.py index DB PASSAGES.jsonl STOPWORDS
  xapian_anchor.py search DB QUERIES.jsonl STOPWORDS K1 B K

index writes every {"id","text"} line of PASSAGES.jsonl as one document
(terms without positions, English stemmer, the stop words of STOPWORDS
left out, as paperlens' BM25 analyzer does). search opens DB and answers
every {"id","query"} line of QUERIES.jsonl with BM25 (k1=K1, b=B; k2=0,
k3=1: the query's repeated terms count once, as in Okapi) and the same
analysis, writing one JSON line a query, {"id","hits":[passage ids]}, and
last a line {"cpu_s": ..., "queries": N}: the process CPU of the open and
the queries alone, without the interpreter's start.
"""

import json
import sys
import time


def stopper(path):
    import xapian

    s = xapian.SimpleStopper()
    with open(path, encoding="utf-8") as f:
        for w in f:
            w = w.strip()
            if w:
                s.add(w)
    return s


def index(db_path, passages, stop_path):
    import xapian

    # No fsync: a benchmark index, rebuilt when lost, whose build is not
    # what is compared.
    db = xapian.WritableDatabase(db_path, xapian.DB_CREATE_OR_OVERWRITE | xapian.DB_NO_SYNC)
    tg = xapian.TermGenerator()
    tg.set_stemmer(xapian.Stem("english"))
    stop = stopper(stop_path)
    tg.set_stopper(stop)
    tg.set_stopper_strategy(xapian.TermGenerator.STOP_ALL)
    n = 0
    with open(passages, encoding="utf-8") as f:
        for line in f:
            p = json.loads(line)
            doc = xapian.Document()
            tg.set_document(doc)
            tg.index_text_without_positions(p["text"])
            doc.set_data(p["id"])
            db.add_document(doc)
            n += 1
    db.commit()
    db.close()
    print(json.dumps({"documents": n}))


def search(db_path, queries, stop_path, k1, b, k):
    import xapian

    start = time.process_time()
    db = xapian.Database(db_path)
    qp = xapian.QueryParser()
    qp.set_database(db)
    qp.set_stemmer(xapian.Stem("english"))
    qp.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
    qp.set_stopper(stopper(stop_path))
    qp.set_default_op(xapian.Query.OP_OR)
    enq = xapian.Enquire(db)
    enq.set_weighting_scheme(xapian.BM25Weight(k1, 0, 1, b, 0.5))
    out = sys.stdout
    n = 0
    with open(queries, encoding="utf-8") as f:
        for line in f:
            q = json.loads(line)
            enq.set_query(qp.parse_query(q["query"], 0))
            hits = [m.document.get_data().decode() for m in enq.get_mset(0, k)]
            out.write(json.dumps({"id": q["id"], "hits": hits}) + "\n")
            n += 1
    cpu = time.process_time() - start
    out.write(json.dumps({"cpu_s": cpu, "queries": n}) + "\n")


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd = argv[1]
    if cmd == "check":
        import xapian

        print(xapian.version_string())
    elif cmd == "index" and len(argv) == 5:
        index(argv[2], argv[3], argv[4])
    elif cmd == "search" and len(argv) == 8:
        search(argv[2], argv[3], argv[4], float(argv[5]), float(argv[6]), int(argv[7]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
