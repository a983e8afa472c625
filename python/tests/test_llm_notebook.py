"""The LLM notebook (fine-tune a 70B model, then serve it) runs top to bottom and draws its plot."""


def test_llm_notebook_executes(run_notebook):
    outputs = run_notebook("llm_fine_tune_and_serve.ipynb")
    assert any("image/png" in o.get("data", {}) for o in outputs)  # the cost-against-time plot
    text = "".join(str(o.get("data", {}).get("text/plain", "")) for o in outputs)
    for gpu in ("H100", "H200", "B200", "MI300X"):
        assert gpu in text
    assert "own assumption" in text or "30% assumed" in text  # the user's MFU row was used
